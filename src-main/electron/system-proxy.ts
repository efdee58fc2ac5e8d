// The system's proxy as the desktop app's session sees it: Chromium's answer from the system settings, a PAC
// script or WPAD, in the PAC form ("PROXY host:port; DIRECT"). The core sees only the resolver (system-proxy.ts).
import type { Session } from 'electron';
import type { SystemProxyResolver } from '../core/network/system-proxy';

export function sessionSystemProxy(session: Pick<Session, 'resolveProxy'>): SystemProxyResolver {
  return (url) => session.resolveProxy(url);
}
