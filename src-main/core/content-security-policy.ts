// The one Content-Security-Policy of the app's page. It is sent as a response header by the desktop window's
// session (on every file it loads) and by web mode (on every page it serves), and the built index.html carries it
// in a <meta> tag as well (vite.config.ts puts it there), in case a header is not applied to a page from file://
// (Electron's documentation has said both). A browser enforces every policy it is given, so the page gets no
// more than the narrowest of them.
//
// Scripts only from the app's own files; workers from those files or from blobs the page's own script made (the
// FITS worker is inlined, see fits-worker-client.ts); no plugins, no framing, no forms, no <base>, no remote
// images or fonts; the page talks only to where the app answers it: the desktop page to nothing (all traffic goes
// through the main process), the web-mode page to its own loopback WebSocket.

/** What the <meta> tag lets the page connect to: web mode's WebSocket, whose port is chosen when it starts. */
export const LOOPBACK_WEB_SOCKETS: readonly string[] = ['ws://127.0.0.1:*', 'ws://localhost:*'];

export interface PolicyOptions {
  /** For a <meta> tag, which cannot carry frame-ancestors (browsers ignore it there, with a warning). */
  meta?: boolean;
}

/** The policy, with the sources the page may connect to besides its own origin (web mode's WebSocket). */
export function contentSecurityPolicy(connectSources: readonly string[] = [], options: PolicyOptions = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(options.meta ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
}
