// The Content-Security-Policy header and the refused browser permissions.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '../../src-main/core/content-security-policy';
import { CONTENT_SECURITY_POLICY, installContentSecurityPolicy } from '../../src-main/electron/content-security-policy';
import { denyPermissionRequests } from '../../src-main/electron/permissions';
import { fake, fakeElectron, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);


type Session = Parameters<typeof installContentSecurityPolicy>[0];
const defaultSession = () => fakeElectron.session.defaultSession as unknown as Session;

beforeEach(() => resetFakeElectron());

describe('Content-Security-Policy', () => {
  it("is the app's one policy, with no connection beyond the page itself (test/core/content-security-policy.test.ts reads it)", () => {
    expect(CONTENT_SECURITY_POLICY).toBe(contentSecurityPolicy());
  });

  it('is set as a response header, replacing any policy the response carried', () => {
    installContentSecurityPolicy(defaultSession());
    const callback = vi.fn();
    fake.headersListener?.(
      {
        url: 'file:///opt/mlso/dist/renderer/index.html',
        responseHeaders: { 'content-security-policy': ["default-src *"], 'X-Other': ['kept'] },
      },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'X-Other': ['kept'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  it('is set when the response had no headers at all', () => {
    installContentSecurityPolicy(defaultSession());
    const callback = vi.fn();
    fake.headersListener?.({ url: 'file:///opt/mlso/dist/renderer/assets/app.js' }, callback);
    expect(callback.mock.calls[0]?.[0]).toEqual({ responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
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
