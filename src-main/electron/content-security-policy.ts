// The app's Content-Security-Policy, sent as a response header. Scripts only from the app's own files,
// no plugins, no framing, and no network access from the page: all traffic goes through the main
// process over the contract. The window only ever shows the app's pages, so every response gets it.
import type { HeadersReceivedResponse, OnHeadersReceivedListenerDetails, Session } from 'electron';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The response headers with our policy in place of any policy the response carried. */
export function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const kept = Object.entries(headers ?? {}).filter(([name]) => !/^content-security-policy(-report-only)?$/i.test(name));
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
}

export function installContentSecurityPolicy(session: Session): void {
  session.webRequest.onHeadersReceived(
    (details: OnHeadersReceivedListenerDetails, callback: (response: HeadersReceivedResponse) => void) => {
      callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
    },
  );
}
