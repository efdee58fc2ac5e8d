// The Content-Security-Policy header and the refused browser permissions.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '../../src-main/core/content-security-policy';
import { installContentSecurityPolicy } from '../../src-main/electron/content-security-policy';
import { denyPermissionRequests } from '../../src-main/electron/permissions';
import { fake, fakeElectron, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

type Session = Parameters<typeof installContentSecurityPolicy>[0];
const defaultSession = () => fakeElectron.session.defaultSession as unknown as Session;

beforeEach(() => resetFakeElectron());

/** The policy a response leaves the session with, as the window would get it. */
function policyOnResponse(details: { url: string; responseHeaders?: Record<string, string[]> }): { headers: Record<string, string[]>; policy: string } {
  const callback = vi.fn();
  fake.headersListener?.(details, callback);
  expect(callback).toHaveBeenCalledOnce();
  const headers = (callback.mock.calls[0]?.[0] as { responseHeaders: Record<string, string[]> }).responseHeaders;
  const policies = Object.entries(headers).filter(([name]) => /^content-security-policy/i.test(name));
  expect(policies).toHaveLength(1);
  return { headers, policy: policies[0]?.[1].join(', ') ?? '' };
}

function connectSources(policy: string): string[] | undefined {
  return policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === 'connect-src')
    ?.slice(1);
}

describe('Content-Security-Policy', () => {
  beforeEach(() => installContentSecurityPolicy(defaultSession()));

  it("is the app's one policy on every response, letting the page connect to nothing but itself", () => {
    for (const url of ['file:///opt/mlso/dist/renderer/index.html', 'file:///opt/mlso/dist/renderer/assets/app.js']) {
      const { policy } = policyOnResponse({ url, responseHeaders: {} });
      // test/core/content-security-policy.unit.test.ts reads this policy directive by directive.
      expect(policy).toBe(contentSecurityPolicy());
      // The desktop page talks to the core over IPC only: no WebSocket, no server, not even web mode's loopback.
      expect(connectSources(policy)).toEqual(["'self'"]);
    }
  });

  it('replaces any policy the response carried, in any case of the header name, and keeps other headers', () => {
    const { headers } = policyOnResponse({
      url: 'file:///opt/mlso/dist/renderer/index.html',
      responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Security-Policy-Report-Only': ['default-src *'], 'X-Other': ['kept'] },
    });
    expect(headers).toEqual({ 'X-Other': ['kept'], 'Content-Security-Policy': [contentSecurityPolicy()] });
  });

  it('is set when the response had no headers at all', () => {
    expect(policyOnResponse({ url: 'file:///opt/mlso/dist/renderer/assets/app.js' }).policy).toBe(contentSecurityPolicy());
  });
});

describe('browser permissions', () => {
  it('are refused, except writing to the clipboard', () => {
    denyPermissionRequests(defaultSession());
    const answers = new Map<string, boolean>();
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-sanitized-write']) {
      fake.permissionRequestHandler?.({}, permission, (granted: boolean) => answers.set(permission, granted));
    }
    expect(Object.fromEntries(answers)).toEqual({
      media: false,
      geolocation: false,
      notifications: false,
      openExternal: false,
      'clipboard-sanitized-write': true,
    });
  });
});
