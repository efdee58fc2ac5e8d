// The app's Content-Security-Policy (core/content-security-policy.ts) as a response header on everything the
// window loads. The window only ever shows the app's pages, so every response gets it.
import type { HeadersReceivedResponse, OnHeadersReceivedListenerDetails, Session } from 'electron';
import { contentSecurityPolicy } from '../core/content-security-policy';

/** The desktop page connects to nothing: all traffic goes through the main process over the contract. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** The response headers with our policy in place of any policy the response carried. */
function withContentSecurityPolicy(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const kept = Object.entries(headers ?? {}).filter(([name]) => !/^content-security-policy(-report-only)?$/i.test(name));
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
}

export function installContentSecurityPolicy(session: Session): void {
  session.webRequest.onHeadersReceived((details: OnHeadersReceivedListenerDetails, callback: (response: HeadersReceivedResponse) => void) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}
