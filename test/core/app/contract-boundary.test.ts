// The contract's edge: every invoke channel's arguments are checked where they enter the core, before any handler
// runs. Wrong types, missing or extra keys, huge strings and NUL bytes sent to EVERY channel (the table below must
// hold each channel of the contract) come back as invalid-input naming the argument, never as an internal error.
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS, type InvokeChannel, type Result } from '../../../src-shared/contract/contract';
import type { Settings } from '../../../src-shared/settings/settings-types';
import { NAME_MAX_CHARS, PATH_MAX_CHARS } from '../../../src-shared/contract/contract-schemas';
import { checkInvokeArguments } from '../../../src-shared/contract/invoke-arguments';
import { defaultSettings } from '../../../src-shared/settings/default-settings';
import { invokeHandler } from '../../../src-main/core/app/invoke-handler';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { useEmulator } from '../../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
let h: CoreHarness;
beforeAll(async () => {
  h = await coreHarness(emulator(), { shell: true });
});
afterAll(async () => {
  await h?.core.close();
});

const folder = path.resolve('/tmp/mlso-boundary');
const HUGE = 'x'.repeat(PATH_MAX_CHARS + 1);
const QUERY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } };
const SETTINGS: Settings = { ...defaultSettings(folder), windowBounds: { x: 1, y: 2, width: 900, height: 700, maximized: false } };

/** A bad call and the argument its refusal must name. */
interface BadCall {
  args: unknown;
  names: string;
}

interface ChannelCases {
  /** Arguments the boundary lets through (undefined: a channel without arguments). */
  valid: unknown;
  /** Keys that may be left out. */
  optional?: readonly string[];
  /** Keys that may be null. */
  nullable?: readonly string[];
  /** Keys whose text may be longer than any name or path (a whole campaign file). */
  longText?: readonly string[];
  /** Bad calls below the top level (nested objects, list items, values of the right type but wrong form). */
  nested?: readonly BadCall[];
}

const noArguments: ChannelCases = { valid: undefined };
const job: ChannelCases = {
  valid: { id: 1 },
  nested: [
    { args: { id: 1.5 }, names: 'id' },
    { args: { id: 2 ** 60 }, names: 'id' },
  ],
};
const campaign: ChannelCases = { valid: { name: 'Eclipse' } };
const CAMPAIGN_DRAFT = { name: 'Eclipse', folder, layout: '{yyyy}', queries: [{ ...QUERY, filters: { every: '1h' } }], autoSyncHours: 24 };

// Typed by the contract's channels: a channel added to the contract without cases here is a type error (and
// the first test below fails too).
const CASES: Record<InvokeChannel, ChannelCases> = {
  'app:info': noArguments,
  'settings:get': noArguments,
  'settings:update': {
    valid: SETTINGS,
    optional: Object.keys(SETTINGS),
    nullable: ['windowBounds'],
    nested: [
      { args: { windowBounds: { x: 1, y: 2, width: 'wide', height: 3, maximized: false } }, names: 'windowBounds' },
      { args: { existingFiles: 'delete' }, names: 'existingFiles' },
    ],
  },
  'settings:choose-folder': noArguments,
  'session:get': noArguments,
  'session:sign-in': { valid: { email: DEMO_EMAIL } },
  'session:sign-out': noArguments,
  'catalog:instruments': noArguments,
  'catalog:products': { valid: { instrument: 'kcor' } },
  'catalog:product': { valid: { instrument: 'kcor', product: 'pb' } },
  'search:start': {
    valid: QUERY,
    nested: [
      { args: { ...QUERY, filters: { every: true } }, names: 'filters.every' },
      { args: { ...QUERY, filters: { 'no-such-filter': '1' } }, names: 'no-such-filter' },
      { args: { ...QUERY, filters: { 'obs-plan': 'a\u0000b' } }, names: 'filters.obs-plan' },
    ],
  },
  'search:page': {
    valid: { searchId: 'search-1', offset: 0, limit: 100, sort: { key: 'filesize', direction: 'descending' } },
    nested: [
      { args: { searchId: 'search-1', offset: -1, limit: 100, sort: { key: 'listed', direction: 'ascending' } }, names: 'offset' },
      { args: { searchId: 'search-1', offset: 0, limit: 100_000, sort: { key: 'listed', direction: 'ascending' } }, names: 'limit' },
      { args: { searchId: 'search-1', offset: 0, limit: 100, sort: { key: 'url', direction: 'ascending' } }, names: 'sort.key' },
    ],
  },
  'search:positions': {
    valid: { searchId: 'search-1', sort: { key: 'filesize', direction: 'descending' }, first: 0, last: 99_999 },
    nested: [
      { args: { searchId: 'search-1', sort: { key: 'listed', direction: 'ascending' }, first: -1, last: 2 }, names: 'first' },
      { args: { searchId: 'search-1', sort: { key: 'listed', direction: 'ascending' }, first: 5, last: 2 }, names: 'last' },
      { args: { searchId: 'search-1', sort: { key: 'listed', direction: 'ascending' }, first: 0, last: 100_000 }, names: 'last' },
    ],
  },
  'search:timeline': { valid: { searchId: 'search-1' } },
  'search:downloaded': { valid: { searchId: 'search-1' } },
  'search:cancel': { valid: { searchId: 'search-1' }, optional: ['searchId'] },
  'downloads:enqueue': {
    valid: { searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: [{ first: 0, last: 1 }] }, folder },
    optional: ['selection', 'folder'],
    nested: [
      { args: {}, names: 'searchId' },
      { args: { searchId: 'search-1', query: QUERY }, names: 'searchId' },
      {
        args: { searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: [{ first: -1, last: 2 }] } },
        names: 'selection.ranges[0].first',
      },
      {
        args: { searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: [{ first: 0, last: 1.5 }] } },
        names: 'selection.ranges[0].last',
      },
      { args: { searchId: 'search-1', selection: { sort: { key: 'url', direction: 'ascending' }, ranges: [] } }, names: 'selection.sort.key' },
      { args: { searchId: 'search-1', entries: [0] }, names: 'entries' },
      { args: { listingId: 'listing-1', entries: [0] }, names: 'searchId' },
      { args: { query: { ...QUERY, instrument: 5 } }, names: 'query.instrument' },
      { args: { query: QUERY, folder: 7 }, names: 'folder' },
    ],
  },
  'downloads:snapshot': noArguments,
  'downloads:page': {
    valid: {
      offset: 0,
      limit: 100,
      states: ['queued', 'paused'],
      place: { folder, nested: true },
      sort: { key: 'name', direction: 'ascending' },
      counted: true,
    },
    nullable: ['states', 'place', 'sort'],
    nested: [
      { args: { offset: -1, limit: 100, states: null, place: null, sort: null, counted: false }, names: 'offset' },
      { args: { offset: 0, limit: 100_000, states: null, place: null, sort: null, counted: false }, names: 'limit' },
      { args: { offset: 0, limit: 100, states: ['waiting'], place: null, sort: null, counted: false }, names: 'states[0]' },
      { args: { offset: 0, limit: 100, states: null, place: null, sort: { key: 'url', direction: 'ascending' }, counted: false }, names: 'sort.key' },
    ],
  },
  'downloads:folders': noArguments,
  'downloads:finished-of': { valid: { filenames: ['a.fts'] }, nested: [{ args: { filenames: ['a\u0000b'] }, names: 'filenames[0]' }] },
  'downloads:pause-all': noArguments,
  'downloads:resume-all': noArguments,
  'downloads:retry-failed': noArguments,
  'downloads:clear-finished': noArguments,
  'downloads:pause': job,
  'downloads:resume': job,
  'downloads:cancel': job,
  'downloads:retry': job,
  'downloads:move-to-front': job,
  'shell:choose-folder': { valid: { current: folder }, optional: ['current'] },
  'shell:open-folder': { valid: { path: folder }, optional: ['path'] },
  'shell:show-file': job,
  'shell:open-external': { valid: { url: 'https://doi.org/10.5065/D69G5JV8' } },
  'files:read': job,
  'disk:free-space': { valid: { folder }, optional: ['folder'] },
  'folders:list': { valid: { path: folder, showHidden: true }, optional: ['path', 'showHidden'] },
  'folders:create': { valid: { parent: folder, name: 'new' } },
  'campaigns:list': noArguments,
  'campaigns:create': {
    valid: CAMPAIGN_DRAFT,
    optional: ['folder', 'layout', 'autoSyncHours'],
    nullable: ['autoSyncHours'],
    nested: [
      { args: { ...CAMPAIGN_DRAFT, queries: [{ instrument: 'kcor' }] }, names: 'queries[0].product' },
      { args: { ...CAMPAIGN_DRAFT, queries: [{ ...QUERY, filters: { every: 5 } }] }, names: 'queries[0].filters.every' },
      { args: { ...CAMPAIGN_DRAFT, queries: [{ ...QUERY, extra: 1 }] }, names: 'extra' },
    ],
  },
  'campaigns:update': {
    valid: { name: 'Eclipse', change: { name: 'Eclipse 2', autoSyncHours: null } },
    nested: [
      { args: { name: 'Eclipse', change: { queries: 'all' } }, names: 'change.queries' },
      { args: { name: 'Eclipse', change: { colour: 'red' } }, names: 'colour' },
    ],
  },
  'campaigns:delete': campaign,
  'campaigns:files': campaign,
  'campaigns:sync': campaign,
  'campaigns:cancel-sync': campaign,
  'campaigns:verify': campaign,
  'campaigns:cancel-verify': campaign,
  'campaigns:export': {
    valid: { name: 'Eclipse', format: 'campaign', includeFiles: true },
    optional: ['includeFiles'],
    nested: [{ args: { name: 'Eclipse', format: 'xml' }, names: 'format' }],
  },
  'campaigns:import': { valid: { text: '{"format": "mlso-downloader-campaign"}', folder, name: 'Eclipse' }, optional: ['folder', 'name'], longText: ['text'] },
};

/** Values of every other type than `value`'s, a huge string and a NUL byte for text: each must be refused. */
function wrongValuesFor(value: unknown, key: string, cases: ChannelCases): unknown[] {
  const nullUnlessNullable = cases.nullable?.includes(key) ? [] : [null];
  if (typeof value === 'string') return [5, true, [], {}, ...nullUnlessNullable, 'a\u0000b', ...(cases.longText?.includes(key) ? [] : [HUGE])];
  if (typeof value === 'number') return ['1', true, [], {}, ...nullUnlessNullable];
  if (typeof value === 'boolean') return ['true', 1, [], ...nullUnlessNullable];
  if (Array.isArray(value)) return ['x', 5, {}, ...nullUnlessNullable];
  return ['x', 5, [], true, ...nullUnlessNullable];
}

/** Every bad call for a channel, made from its valid arguments, plus its nested cases. */
function badCalls(channel: InvokeChannel): BadCall[] {
  const cases = CASES[channel];
  if (cases.valid === undefined) return [{}, { unexpected: 1 }, 5, 'text', [], true].map((args) => ({ args, names: channel }));
  const valid = cases.valid as Record<string, unknown>;
  const calls: BadCall[] = [5, 'text', [], true].map((args) => ({ args, names: channel }));
  calls.push({ args: { ...valid, unexpectedKey: 1 }, names: 'unexpectedKey' });
  for (const [key, value] of Object.entries(valid)) {
    for (const wrong of wrongValuesFor(value, key, cases)) calls.push({ args: { ...valid, [key]: wrong }, names: key });
    if (!cases.optional?.includes(key)) {
      const { [key]: _left, ...without } = valid;
      calls.push({ args: without, names: key });
    }
  }
  return [...calls, ...(cases.nested ?? [])];
}

function describeCall(args: unknown): string {
  const text = JSON.stringify(args) ?? String(args);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** The refusal a bad call must get: invalid input, named, in one short plain sentence. */
function expectNamedRefusal(channel: InvokeChannel, call: BadCall, result: Result<unknown>): void {
  const context = `${channel} ${describeCall(call.args)}`;
  expect(result.ok, context).toBe(false);
  if (result.ok) return;
  expect(result.error.kind, `${context}: ${result.error.message}`).toBe('invalid-input');
  const { message } = result.error;
  if (channel === 'settings:update' && call.names in SETTINGS) expect(result.error.field, `${context}: ${message}`).toBe(call.names);
  else expect(message, context).toContain(call.names);
  expect(message, context).not.toMatch(/Unexpected problem|Cannot destructure|is not a function|Invalid input|expected \w+, received/);
  expect(message.length, context).toBeLessThan(300);
  expect(message, context).toMatch(/^[^\n]*\.$/);
}

describe('the contract boundary', () => {
  it('has cases for every channel of the contract', () => {
    expect(Object.keys(CASES).sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it.each(INVOKE_CHANNELS)('%s lets its valid arguments through', (channel) => {
    expect(checkInvokeArguments(channel, CASES[channel].valid)).toMatchObject({ ok: true });
  });

  it.each(INVOKE_CHANNELS)('%s refuses wrong types, missing and extra keys, huge strings and NUL bytes, naming the argument', async (channel) => {
    for (const call of badCalls(channel)) expectNamedRefusal(channel, call, await invokeHandler(h.core.handlers, channel, call.args));
  });

  it('takes nothing or null for a channel without arguments (what the window and web mode send)', async () => {
    for (const channel of INVOKE_CHANNELS.filter((name) => CASES[name].valid === undefined)) {
      expect(checkInvokeArguments(channel, undefined), channel).toEqual({ ok: true, value: undefined });
      expect(checkInvokeArguments(channel, null), channel).toEqual({ ok: true, value: undefined });
    }
    expect(await invokeHandler(h.core.handlers, 'downloads:snapshot', null)).toMatchObject({ ok: true, value: { jobs: [] } });
  });

  it('answers the calls the issue found reaching handlers unchecked', async () => {
    expect(await invokeHandler(h.core.handlers, 'search:start', { instrument: 5 })).toEqual({
      ok: false,
      error: { kind: 'invalid-input', message: 'instrument must be text.' },
    });
    expect(await invokeHandler(h.core.handlers, 'downloads:pause', undefined)).toEqual({
      ok: false,
      error: { kind: 'invalid-input', message: 'id is missing; it must be a whole number.' },
    });
  });

  it('names a setting by its label and field, in the words of the settings rules', async () => {
    // What the Settings form sends for an emptied number field.
    expect(await invokeHandler(h.core.handlers, 'settings:update', { concurrency: null })).toEqual({
      ok: false,
      error: { kind: 'invalid-input', message: 'Concurrency must be a whole number from 1 to 16.', field: 'concurrency' },
    });
    expect(await invokeHandler(h.core.handlers, 'settings:update', { nope: 1, other: 2 })).toMatchObject({
      error: { message: '"nope", "other" are not settings; nothing was saved.' },
    });
  });

  it('says which form downloads:enqueue takes when a call matches neither', async () => {
    expect(await invokeHandler(h.core.handlers, 'downloads:enqueue', { searchId: 'a', query: QUERY })).toMatchObject({
      error: {
        message: 'The arguments of downloads:enqueue must name what to download: a searchId (with the chosen rows) or a query; only one.',
      },
    });
  });

  it('shows a hostile key shortened and escaped, never as sent', () => {
    const key = `\u001b[2J${'k'.repeat(10_000)}`;
    const check = checkInvokeArguments('downloads:pause', { id: 1, [key]: 1 });
    expect(check).toMatchObject({ ok: false });
    if (check.ok) return;
    expect(check.message).not.toContain('\u001b');
    expect(check.message).toContain('\\u001b');
    expect(check.message.length).toBeLessThan(200);
  });

  it('refuses a name longer than any real one, and a path longer than any system takes', () => {
    expect(checkInvokeArguments('session:sign-in', { email: 'e'.repeat(NAME_MAX_CHARS + 1) })).toEqual({
      ok: false,
      message: 'email is too long: at most 1,000 characters.',
    });
    expect(checkInvokeArguments('disk:free-space', { folder: `/${'d'.repeat(PATH_MAX_CHARS)}` })).toEqual({
      ok: false,
      message: 'folder is too long: at most 32,767 characters.',
    });
  });

  it('hands the handler a copy of the arguments, without keys it does not know', () => {
    const sent = { instrument: 'kcor', product: 'pb', filters: {} };
    const check = checkInvokeArguments('search:start', sent);
    expect(check).toEqual({ ok: true, value: sent });
    if (check.ok) expect(check.value).not.toBe(sent);
  });

  it('answers any JSON value on any channel with a pass or one plain sentence (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INVOKE_CHANNELS), fc.jsonValue({ maxDepth: 3 }), (channel, args) => {
        const check = checkInvokeArguments(channel, args);
        if (check.ok) return;
        expect(check.message).toMatch(/^[^\n]{1,300}\.$/);
        expect(check.message).not.toMatch(/Invalid input|expected \w+, received|undefined|\[object/);
      }),
      { numRuns: 500 },
    );
  });
});
