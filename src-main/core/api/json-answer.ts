// Checking a JSON answer against its schema, with the messages a person sees when the answer is not what
// the API documents: shared by the text path (small answers) and the streaming file listing parser.
import type { z } from 'zod';
import { InvalidResponseError } from '../errors';

/** Parses and checks a whole answer held as text. */
export function parseJsonAnswer<S extends z.ZodType>(url: string, text: string, schema: S): z.infer<S> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notJson(url, text);
  }
  return checkShape(url, body, schema);
}

/** Checks a value against `schema`; `at` is where the value sits in the answer (an entry of `files`). */
export function checkShape<S extends z.ZodType>(url: string, value: unknown, schema: S, at: PropertyKey[] = []): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [...at, ...(issue?.path ?? [])].map(String);
  const where = path.length > 0 ? path.join('.') : 'the answer';
  throw new InvalidResponseError(url, `${where}: ${issue?.message ?? 'unexpected shape'}`);
}

/** The answer is not JSON; `start` is its beginning, `more` whether anything followed that was not kept. */
export function notJson(url: string, start: string, more = false): InvalidResponseError {
  return new InvalidResponseError(url, `expected JSON, got ${describeText(start, more)}`);
}

function describeText(text: string, more: boolean): string {
  const trimmed = text.trim();
  if (trimmed.length === 0 && !more) return 'an empty body';
  if (/^<(!doctype|html)/i.test(trimmed)) return 'an HTML page';
  return `"${trimmed.slice(0, 40)}${trimmed.length > 40 || more ? '…' : ''}"`;
}
