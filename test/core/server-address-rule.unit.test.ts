// The one Host/Origin rule of web mode and the emulator's control endpoints, for each kind of listen address.
import { describe, expect, it } from 'vitest';
import { ServerAddressRule } from '../../src-main/core/server-address-rule';

describe('ServerAddressRule', () => {
  it.each([
    ['127.0.0.1', ['127.0.0.1:80', 'localhost:80']],
    ['::1', ['[::1]:80', 'localhost:80']],
    ['localhost', ['127.0.0.1:80', 'localhost:80', '[::1]:80']],
    ['0.0.0.0', ['127.0.0.1:80', 'localhost:80', '[::1]:80']],
    ['::', ['127.0.0.1:80', 'localhost:80', '[::1]:80']],
    ['192.168.1.5', ['192.168.1.5:80']],
    ['fe80::1', ['[fe80::1]:80']],
  ])('a server listening on %s answers to %j', (listenHost, hosts) => {
    const rule = new ServerAddressRule(listenHost, 80);
    expect([...rule.hosts]).toEqual(hosts);
    for (const host of hosts) {
      expect(rule.hostAllowed(host.toUpperCase())).toBe(true);
      expect(rule.originAllowed(`http://${host}`)).toBe(true);
    }
  });

  it('refuses other names, ports, schemes, a missing Host and a missing or opaque Origin', () => {
    const rule = new ServerAddressRule('127.0.0.1', 80);
    for (const host of ['evil.example:80', '127.0.0.1:81', '127.0.0.1', '[::1]:80', '', undefined]) expect(rule.hostAllowed(host)).toBe(false);
    for (const origin of ['http://evil.example', 'https://127.0.0.1:80', 'http://127.0.0.1:80/', 'null', undefined])
      expect(rule.originAllowed(origin)).toBe(false);
  });
});
