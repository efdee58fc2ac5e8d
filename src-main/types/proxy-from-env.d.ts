// proxy-from-env ships no types: its one function, as its README documents it.
declare module 'proxy-from-env' {
  /** The proxy address for `url` from the *_PROXY and NO_PROXY variables, or '' when none applies. */
  export function getProxyForUrl(url: string | URL): string;
}
