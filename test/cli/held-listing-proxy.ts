// A proxy in front of the emulator that holds the file listing back until the client has done something else,
// and notes the order in which requests came: it shows what a client does while its listing is still on the
// way. A hold that the client never releases ends after a while, so a client that waits for the whole listing
// first is seen doing so (the note says "timeout") instead of hanging the test.
import { request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { oddServer } from '../helpers/fixtures';

type RequestKind = 'authenticate' | 'listing' | 'download' | 'other';

export interface HoldRules {
  /** Hold the listing's answer (its headers and body) until a request of this kind arrives. */
  listingUntil?: RequestKind;
  /** Send all of the listing's body but its last bytes, and hold those until a request of this kind arrives. */
  listingTailUntil?: RequestKind;
}

export interface HeldListingProxy {
  url: string;
  /** What happened, in order: "listing:start", "authenticate:start", "listing:released by download", "listing:end", ... */
  events: string[];
  close(): Promise<void>;
}

const TAIL_BYTES = 200;

function kindOf(path: string): RequestKind {
  if (path.startsWith('/v1/authenticate')) return 'authenticate';
  if (path.startsWith('/v1/download')) return 'download';
  if (/^\/v1\/instruments\/[^/]+\/products\/[^/]+\/files\/?(\?|$)/.test(path)) return 'listing';
  return 'other';
}

export async function heldListingProxy(target: string, rules: HoldRules, holdMs = 5_000): Promise<HeldListingProxy> {
  const events: string[] = [];
  const arrivals = new Map<RequestKind, (() => void)[]>();
  const seen = new Set<RequestKind>();
  /** Resolves with what released the hold: the awaited kind of request, or the timeout. */
  const arrivalOf = (kind: RequestKind): Promise<string> =>
    seen.has(kind)
      ? Promise.resolve(kind)
      : new Promise((resolve) => {
          const timer = setTimeout(() => resolve('timeout'), holdMs);
          arrivals.set(kind, [...(arrivals.get(kind) ?? []), () => (clearTimeout(timer), resolve(kind))]);
        });

  const proxy = await oddServer((req, res) => {
    res.on('error', () => undefined);
    const kind = kindOf(req.url ?? '/');
    events.push(`${kind}:start`);
    seen.add(kind);
    for (const release of arrivals.get(kind) ?? []) release();
    arrivals.delete(kind);
    // The Host header goes through unchanged, so the emulator's download URLs point at this proxy too.
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      answer.on('error', () => res.destroy());
      void relay(kind, answer.statusCode ?? 502, answer.headers, answer, res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  async function relay(kind: RequestKind, status: number, headers: IncomingHttpHeaders, answer: NodeJS.ReadableStream, res: ServerResponse): Promise<void> {
    const held = kind === 'listing' && status === 200;
    if (held && rules.listingUntil) events.push(`listing:released by ${await arrivalOf(rules.listingUntil)}`);
    res.writeHead(status, headers);
    if (!(held && rules.listingTailUntil)) {
      answer.pipe(res);
      if (held) res.on('finish', () => events.push('listing:end'));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    res.write(body.subarray(0, body.length - TAIL_BYTES));
    events.push(`listing:tail released by ${await arrivalOf(rules.listingTailUntil)}`);
    res.end(body.subarray(body.length - TAIL_BYTES), () => events.push('listing:end'));
  }

  return { url: proxy.url, events, close: proxy.close };
}
