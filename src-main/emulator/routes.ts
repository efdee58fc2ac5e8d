// Maps a request path to an API route. Endpoints 3-6 are canonical with a trailing slash (as in Flask, the same
// path without it redirects); about, instruments, authenticate and download have none (with one they are 404).

export type Route =
  | { kind: 'about' }
  | { kind: 'instruments' }
  | { kind: 'instrument'; instrument: string }
  | { kind: 'products'; instrument: string }
  | { kind: 'product'; instrument: string; product: string }
  | { kind: 'files'; instrument: string; product: string }
  | { kind: 'authenticate' }
  | { kind: 'download' }
  | { kind: 'add-slash' }
  | { kind: 'not-found'; message: string };

/** `rawPath` is the path as sent, still percent-encoded. */
export function matchRoute(rawPath: string): Route {
  const segments = rawPath.split('/').slice(1);
  const version = segments[0];
  if (version === undefined || version === '' || !/^v\d+$/.test(version)) {
    return { kind: 'not-found', message: `no such endpoint: ${rawPath}; every path starts with /v1` };
  }
  if (version !== 'v1') return { kind: 'not-found', message: `API version ${version} not found; the only version is v1` };

  let parts: string[];
  try {
    parts = segments.slice(1).map((segment) => decodeURIComponent(segment));
  } catch {
    return { kind: 'not-found', message: `no such endpoint: ${rawPath}` };
  }
  const [first, instrument, third, product, fifth, sixth] = parts;
  const n = parts.length;
  const slashed = parts[n - 1] === '';
  const named = (value: string | undefined): value is string => value !== undefined && value !== '';

  if (n === 1 && first === 'about') return { kind: 'about' };
  if (n === 1 && first === 'instruments') return { kind: 'instruments' };
  if (n === 1 && first === 'authenticate') return { kind: 'authenticate' };
  if (n === 1 && first === 'download') return { kind: 'download' };
  if (first === 'instruments' && named(instrument)) {
    if (n === 2) return { kind: 'add-slash' };
    if (n === 3 && slashed) return { kind: 'instrument', instrument };
    if (third === 'products') {
      if (n === 3) return { kind: 'add-slash' };
      if (n === 4 && slashed) return { kind: 'products', instrument };
      if (named(product)) {
        if (n === 4) return { kind: 'add-slash' };
        if (n === 5 && slashed) return { kind: 'product', instrument, product };
        if (fifth === 'files') {
          if (n === 5) return { kind: 'add-slash' };
          if (n === 6 && sixth === '') return { kind: 'files', instrument, product };
        }
      }
    }
  }
  return { kind: 'not-found', message: `no such endpoint: ${rawPath}` };
}
