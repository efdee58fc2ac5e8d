// The app's one Content-Security-Policy, read directive by directive as a browser would: what each lets the page
// load or do. The desktop window's header and web mode's header are both this policy (checked here and in
// test/web/web-server.test.ts), so a change to one cannot leave the other behind.
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src-main/core/content-security-policy';
import { CONTENT_SECURITY_POLICY } from '../../src-main/electron/content-security-policy';

/** Directive name to its sources. */
function directivesOf(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(directives.has(name), `${name} given twice`).toBe(false);
    directives.set(name, sources);
  }
  return directives;
}

/** The sources that apply to a fetch directive (its own, else default-src's), as CSP level 3 falls back. */
function effective(directives: Map<string, string[]>, name: string): string[] {
  return directives.get(name) ?? (name === 'worker-src' ? directives.get('script-src') : undefined) ?? directives.get('default-src') ?? [];
}

describe.each([
  ['desktop window', CONTENT_SECURITY_POLICY, []],
  ['web mode', contentSecurityPolicy(['ws://127.0.0.1:4321', 'ws://localhost:4321']), ['ws://127.0.0.1:4321', 'ws://localhost:4321']],
] as const)('the Content-Security-Policy of the %s', (_, policy, sockets) => {
  const directives = directivesOf(policy);

  it("runs only the app's own scripts: no inline script, no eval, no other origin", () => {
    expect(effective(directives, 'script-src')).toEqual(["'self'"]);
  });

  it("starts workers only from the app's files or from blobs its own script made", () => {
    expect(effective(directives, 'worker-src')).toEqual(["'self'", 'blob:']);
  });

  it('lets the page connect nowhere but to itself (and in web mode its own WebSocket)', () => {
    expect(effective(directives, 'connect-src')).toEqual(["'self'", ...sockets]);
  });

  it('loads nothing from another origin: no remote images, fonts, frames, media or plugins', () => {
    for (const name of ['default-src', 'img-src', 'font-src', 'frame-src', 'media-src', 'style-src', 'manifest-src']) {
      const remote = effective(directives, name).filter((source) => !["'self'", "'unsafe-inline'", 'data:'].includes(source));
      expect(remote, name).toEqual([]);
    }
    expect(directives.get('object-src')).toEqual(["'none'"]);
  });

  it('cannot be framed, post a form anywhere or move its base URL', () => {
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });
});
