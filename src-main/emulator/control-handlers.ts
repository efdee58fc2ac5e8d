// /__emulator/*: steering an emulator that runs in another process (the benchmark, the demo server). Programs
// that reach its port may steer it, a web page the user happens to open may not: web mode's Host and Origin rule,
// and a body declared JSON (a cross-site form or text/plain POST needs no permission from the browser).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerAddressRule } from '../core/server-address-rule';
import { sendError, sendJson } from './http-replies';
import { isDownloadFault, DOWNLOAD_FAULTS } from './faults';
import type { RunningEmulator } from './running-emulator';

const MAX_BODY_BYTES = 1024 * 1024;

export async function handleControl(
  emulator: RunningEmulator,
  rule: ServerAddressRule,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const { host, origin } = req.headers;
  if (!rule.hostAllowed(host)) {
    return sendError(res, 403, `control requests must name the emulator by its own address (${[...rule.hosts].join(', ')}), not Host ${host ?? '(none)'}`);
  }
  // No Origin: not a web page (curl, the benchmark, tests). A page always sends one with a cross-site request.
  if (origin !== undefined && !rule.originAllowed(origin)) return sendError(res, 403, `control requests from a page of another origin (${origin}) are refused`);
  const action = path.slice('/__emulator/'.length);
  const method = action === 'stats' ? 'GET' : 'POST';
  if (!['stats', 'reset-stats', 'options', 'fault', 'expire-sessions'].includes(action)) {
    return sendError(res, 404, `no such emulator control: ${path}`);
  }
  if (req.method !== method) return sendError(res, 405, `${path} takes ${method}`, { Allow: method });
  if (hasBody(req) && !isJson(req.headers['content-type'])) {
    return sendError(res, 415, `send the body as JSON with the header "Content-Type: application/json" (curl: -H 'Content-Type: application/json')`);
  }

  switch (action) {
    case 'stats':
      return sendJson(res, 200, emulator.stats());
    case 'reset-stats':
      emulator.resetStats();
      return sendJson(res, 200, { message: 'statistics reset' });
    case 'expire-sessions':
      emulator.expireSessions();
      return sendJson(res, 200, { message: 'all sessions expired' });
  }

  let body: unknown;
  try {
    body = JSON.parse((await readBody(req)) || '{}');
  } catch (error) {
    return sendError(res, 400, `request body must be a JSON object: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendError(res, 400, 'request body must be a JSON object');
  const fields = body as Record<string, unknown>;
  try {
    if (action === 'options') {
      // JSON has no undefined: null unsets the one optional knob (publicBaseUrl).
      emulator.setOptions(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === null ? undefined : v])));
      return sendJson(res, 200, emulator.options);
    }
    const { filename, fault, times } = fields;
    if (typeof filename !== 'string' || filename === '') return sendError(res, 400, 'fault needs "filename", a listed file name');
    if (!isDownloadFault(fault)) return sendError(res, 400, `"fault" must be one of ${DOWNLOAD_FAULTS.join(', ')}`);
    if (times !== undefined && !(typeof times === 'number' && Number.isInteger(times) && times >= 1)) {
      return sendError(res, 400, '"times" must be a positive integer');
    }
    emulator.injectFault(filename, fault, times);
    return sendJson(res, 200, { message: `next ${times ?? 1} download(s) of ${filename} get ${fault}` });
  } catch (error) {
    return sendError(res, 400, (error as Error).message);
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
