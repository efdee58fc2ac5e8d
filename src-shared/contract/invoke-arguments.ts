// Checks an invoke's arguments against its channel's schema (contract-schemas.ts) and, when they do not fit, says
// which argument is wrong and how in one plain sentence ("id must be a whole number."), never zod's own wording.
import type { z } from 'zod';
import { displayName } from '../format/display-text';
import type { InvokeChannel } from './contract';
import { INVOKE_ARGUMENTS, NO_ARGUMENTS, SETTING_ARGUMENTS } from './contract-schemas';

export type ArgumentCheck =
  | { ok: true; value: unknown }
  /** `field`: the setting a refused settings:update is about, for a form to show the message at it. */
  | { ok: false; message: string; field?: string };

/** What the error map gives an issue whose schema says nothing of its own: the message is then worded here. */
const UNWORDED = '\u0000unworded';

type Issue = z.core.$ZodIssue;

export function checkInvokeArguments(channel: InvokeChannel, args: unknown): ArgumentCheck {
  const schema: z.ZodType = INVOKE_ARGUMENTS[channel];
  // No argument object at all reads as an empty one, so the refusal names the first argument missing
  // ("id is missing") rather than the object; a channel whose arguments are all optional takes it as it is.
  const given = schema !== NO_ARGUMENTS && (args === undefined || args === null) ? {} : args;
  const checked = schema.safeParse(given, { error: () => UNWORDED, reportInput: true });
  if (checked.success) return { ok: true, value: checked.data };
  const issue = checked.error.issues[0]!;
  const message = schema === NO_ARGUMENTS ? `${channel} takes no arguments; send none.` : describe(issue, [], channel);
  const field = channel === 'settings:update' && isSetting(issue.path[0]) ? issue.path[0] : undefined;
  return field === undefined ? { ok: false, message } : { ok: false, message, field };
}

/** The sentence for one issue; `prefix` is the path of the union the issue came from, if any. */
function describe(issue: Issue, prefix: PropertyKey[], channel: InvokeChannel): string {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') {
    const branch = fittingBranch(issue.errors);
    if (branch) return describe(branch, path, channel);
  }
  if (issue.code === 'unrecognized_keys') return unknownKeys(issue.keys, path, channel);
  const subject = subjectOf(path, channel);
  const wording = issue.message !== UNWORDED ? issue.message : predicate(issue);
  if (issue.code === 'invalid_type' && issue.input === undefined) return sentence(`${subject} is missing; it ${wording}`);
  return sentence(`${subject} ${wording}`);
}

/**
 * Of a union's forms, the one the value was evidently meant as: the only one whose keys it does not overstep.
 * With none or several such forms, the union's own message says what it takes.
 */
function fittingBranch(branches: Issue[][]): Issue | undefined {
  const fitting = branches.filter((issues) => !issues.some((issue) => issue.code === 'unrecognized_keys' && issue.path.length === 0));
  return fitting.length === 1 ? fitting[0]![0] : undefined;
}

function predicate(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return expectation(issue.expected);
    case 'too_big':
      if (issue.origin === 'string') return `is too long: at most ${issue.maximum.toLocaleString('en-US')} characters`;
      if (issue.origin === 'array') return `has too many items: at most ${issue.maximum.toLocaleString('en-US')}`;
      return issue.origin === 'int' ? 'is too large a number' : `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must hold at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}`;
      return issue.origin === 'int' ? 'is too small a number' : `must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return 'is not in a form this version understands';
  }
}

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object with named values',
  array: 'a list',
  null: 'null',
};

function expectation(expected: string): string {
  return `must be ${EXPECTED[expected] ?? expected}`;
}

/** `id`, `query.filters.every`, `queries[2].product`; a setting by its label; the whole as "the arguments". */
function subjectOf(path: PropertyKey[], channel: InvokeChannel): string {
  const [first] = path;
  if (first === undefined) return `The arguments of ${channel}`;
  if (channel === 'settings:update' && path.length === 1 && isSetting(first)) return SETTING_ARGUMENTS[first].label;
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}

function isSetting(key: PropertyKey | undefined): key is keyof typeof SETTING_ARGUMENTS {
  return typeof key === 'string' && Object.hasOwn(SETTING_ARGUMENTS, key);
}

function unknownKeys(keys: string[], path: PropertyKey[], channel: InvokeChannel): string {
  const shown = keys.slice(0, 3).map((key) => `"${displayName(key)}"`);
  const more = keys.length > shown.length ? ` and ${keys.length - shown.length} more` : '';
  const names = `${shown.join(', ')}${more}`;
  const plural = keys.length > 1;
  if (path.length > 0) return `${subjectOf(path, channel)} does not take ${names}.`;
  if (channel === 'settings:update') return `${names} ${plural ? 'are not settings' : 'is not a setting'}; nothing was saved.`;
  return `${names} ${plural ? 'are not arguments' : 'is not an argument'} of ${channel}.`;
}

function sentence(text: string): string {
  return `${text}.`;
}
