// Which download addresses are fetched: web addresses on the API's own server, and others only when the user
// has allowed other servers (the setting, or --allow-other-hosts). Checked when a listing is taken in (the
// entry is refused and reported), when a download starts and at every redirect it meets (nothing is fetched).
// Catalogue answers are not fenced: a moved service may redirect them, and the cookie jar keeps the session
// to the API's server either way.
import { RedirectError, RefusedAddressError, type MlsoError } from '../errors';
import { ApiServer, isWebAddress } from './api-server';

export interface DownloadFence {
  server: ApiServer;
  allowOtherHosts: boolean;
  /** How the front end lets other servers in, as a clause: "add --allow-other-hosts". */
  advice: string;
}

export type AddressCheck = { ok: true; url: URL } | { ok: false; error: MlsoError };

/** Whether the listed address `listed` is fetched, read the way a download opens it: relative to the base URL. */
export function checkDownloadAddress(fence: DownloadFence, listed: string, baseUrl: string): AddressCheck {
  let url: URL;
  try {
    url = new URL(listed, `${baseUrl}/`);
  } catch {
    return { ok: false, error: RefusedAddressError.notWeb(listed) };
  }
  if (!isWebAddress(url)) return { ok: false, error: RefusedAddressError.notWeb(listed) };
  if (fence.allowOtherHosts || fence.server.holds(url)) return { ok: true, url };
  const names = fence.server.describe(url);
  return { ok: false, error: RefusedAddressError.otherServer(url.href, names.other, names.api, fence.advice) };
}

/** Why a download's redirect from `from` to `to` is not followed, or undefined when it may be. */
export function refusalOfRedirect(fence: DownloadFence, from: string, to: URL): MlsoError | undefined {
  if (fence.allowOtherHosts || fence.server.holds(to)) return undefined;
  const names = fence.server.describe(to);
  return RedirectError.otherServer(from, names.other, names.api, fence.advice);
}
