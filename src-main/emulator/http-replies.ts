// Response helpers. The service answers JSON the way Flask's jsonify does: compact, keys sorted, trailing newline.
import type { IncomingMessage, ServerResponse, OutgoingHttpHeaders } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendJsonText(res, status, `${JSON.stringify(body)}\n`, headers);
}

/** Sends JSON already serialised; false when the response was over before it could be sent. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}): boolean {
  if (res.headersSent || res.destroyed) return false;
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
  return true;
}

/** Every error of the API is a JSON object with a `message`. */
export function sendError(res: ServerResponse, status: number, message: string, headers: OutgoingHttpHeaders = {}): void {
  sendJson(res, status, { message }, headers);
}

export function sendText(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** scheme://host the client used to reach us, for absolute Locations and download URLs (https when served with --tls). */
export function requestOrigin(req: IncomingMessage, fallbackHost: string): string {
  const host = req.headers.host;
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return `${scheme}://${host && host.length > 0 ? host : fallbackHost}`;
}
