// The client answers a listed address on a server it found fine from memory (a million entries' addresses took
// seconds to parse); what it remembers goes with the settings it was found under.
import { describe, expect, it, vi } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';

describe('download addresses checked from memory', () => {
  it('lets another server in only while other servers are allowed, and always names the refused address', () => {
    const client = new MlsoClient({ baseUrl: 'https://api.example.org', allowOtherHosts: true });
    const elsewhere = (file: string): string => `https://files.example.net/kcor/${file}`;
    expect(client.downloadAddressRefusal(elsewhere('a.fts'))).toBeUndefined();
    expect(client.downloadAddressRefusal(elsewhere('b.fts'))).toBeUndefined();
    client.configure({ allowOtherHosts: false });
    expect(client.downloadAddressRefusal(elsewhere('a.fts'))?.message).toMatch(/files\.example\.net/);
    expect(client.downloadAddressRefusal(elsewhere('c.fts'))?.message).toMatch(/files\.example\.net/);
    expect(client.downloadAddressRefusal('https://api.example.org/download?filename=c.fts')).toBeUndefined();
    expect(client.downloadAddressRefusal('ftp://api.example.org/c.fts')?.message).toMatch(/ftp:\/\/api\.example\.org\/c\.fts/);
    client.configure({ baseUrl: 'https://other.example.org' });
    expect(client.downloadAddressRefusal('https://api.example.org/download?filename=c.fts')?.message).toMatch(/api\.example\.org/);
  });

  it('answers the addresses of a server it last found fine without parsing them', () => {
    const client = new MlsoClient({ baseUrl: 'https://api.example.org' });
    const address = (index: number): string => `https://api.example.org/download?filename=${index}.fts`;
    expect(client.downloadAddressRefusal(address(0))).toBeUndefined();
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    try {
      for (let index = 1; index <= 1000; index += 1) expect(client.downloadAddressRefusal(address(index))).toBeUndefined();
      // A look-alike that only begins the same is still asked about: another server, refused by name.
      expect(client.downloadAddressRefusal('https://api.example.org.evil.test/x.fts')?.message).toMatch(/evil\.test/);
      expect(client.downloadAddressRefusal('https://api.example.org@evil.test/x.fts')?.message).toMatch(/evil\.test/);
      expect(exec.mock.calls.length).toBeLessThan(100);
    } finally {
      exec.mockRestore();
    }
  });
});
