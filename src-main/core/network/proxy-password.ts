// A proxy setting's password taken out of the address and put back, the rest of the text left as it was typed:
// the desktop app keeps the password in the system keychain and only the address without it in the preferences.
// The parts are found as a URL parser finds them (WHATWG): the authority ends at the first "/", "?", "#" or "\",
// the user information at its last "@", and the password follows the first ":" in it.

export interface SplitProxySetting {
  /** The setting without its password (the user name stays). */
  proxy: string;
  /** The password as typed (percent-encoded where it was); null when the address has none. */
  password: string | null;
}

/** Where the user name ends (at the ":" before a password, or at the "@") and where the "@" is; null without one. */
function userInformation(setting: string): { userEnd: number; at: number } | null {
  const scheme = setting.indexOf('://');
  const authorityStart = scheme === -1 ? 0 : scheme + 3;
  const rest = setting.slice(authorityStart);
  const authorityLength = rest.search(/[/?#\\]/);
  const authority = authorityLength === -1 ? rest : rest.slice(0, authorityLength);
  const at = authority.lastIndexOf('@');
  if (at === -1) return null;
  const colon = authority.slice(0, at).indexOf(':');
  return { userEnd: authorityStart + (colon === -1 ? at : colon), at: authorityStart + at };
}

/** The setting without its password, and the password; an empty password counts as none. */
export function splitProxyPassword(setting: string): SplitProxySetting {
  const found = userInformation(setting);
  if (!found || found.userEnd + 1 >= found.at) return { proxy: setting, password: null };
  return { proxy: setting.slice(0, found.userEnd) + setting.slice(found.at), password: setting.slice(found.userEnd + 1, found.at) };
}

/** The setting with `password` put back after its user name; unchanged when it names no user or has a password. */
export function withProxyPassword(setting: string, password: string | null): string {
  if (password === null || password === '') return setting;
  const found = userInformation(setting);
  if (!found || setting[found.userEnd] === ':') return setting;
  return `${setting.slice(0, found.userEnd)}:${password}${setting.slice(found.userEnd)}`;
}
