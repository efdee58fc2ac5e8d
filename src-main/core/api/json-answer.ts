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
  const path = [...at, ...(issue?.path ?? [])];
  throw new InvalidResponseError(url, issue ? describeIssue(issue, placeOf(path), valueAt(value, issue.path)) : `${placeOf(path)} has an unexpected shape`);
}

/** Where in the answer, as a person reads it: `files[3].url`, or "the answer" itself. */
function placeOf(path: readonly PropertyKey[]): string {
  let place = '';
  for (const key of path) place += typeof key === 'number' ? `[${key}]` : `${place === '' ? '' : '.'}${String(key)}`;
  return place === '' ? 'the answer' : place;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Names of JSON's kinds of value, as a message says them. */
const KIND_NAMES: Record<string, string> = { string: 'text', number: 'a number', boolean: 'true or false', array: 'a list', object: 'an object', null: 'null' };

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return KIND_NAMES[typeof value] ?? typeof value;
}

/** What was wrong, in words rather than the schema library's ("expected string, received undefined"). */
function describeIssue(issue: z.core.$ZodIssue, place: string, found: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (found === undefined) return `${place} is missing`;
      return `${place} should be ${KIND_NAMES[issue.expected] ?? issue.expected}, not ${kindOf(found)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${place} is empty`;
      if (issue.origin === 'number') return `${place} should be ${String(issue.minimum)} or more, not ${String(found)}`;
      return `${place} is too short`;
    default:
      return `${place}: ${issue.message}`;
  }
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
