// The arguments of every invoke channel as zod schemas: what the core checks at its edge (invoke-arguments.ts)
// before any handler runs, whichever transport the call came by. The schemas check types and shapes only; the
// domain's own rules (a folder is a full path, a filter value a date, a setting in its range) stay where they are
// and name what they refuse. Below the table, the compiler holds each schema to its channel's type in contract.ts.
import { z } from 'zod';
import { CAMPAIGN_EXPORT_FORMATS } from '../campaigns/campaign-types';
import { JOB_PAGE_MAX_ROWS, SORT_KEYS } from '../downloads/job-page';
import { JOB_STATES } from '../downloads/job-state';
import { FILTER_NAMES, type FilterName } from '../filters/filter-table';
import { RESULT_PAGE_MAX_ROWS, RESULT_POSITIONS_MAX_ROWS, RESULT_SORT_KEYS } from '../search/result-page';
import { rangeText, SETTING_DEFINITIONS, type SettingDefinition } from '../settings/setting-definitions';
import type { Settings } from '../settings/settings-types';
import type { ArgsOf, InvokeChannel } from './contract';

/** Names, e-mails, ids, filter values, templates: one line, and far longer than any real one. */
export const NAME_MAX_CHARS = 1_000;
/** The longest path (or link) any supported system takes: Windows' extended-length paths. */
export const PATH_MAX_CHARS = 32_767;
/**
 * A shared campaign file (campaigns:import) with its file list takes about 530 bytes per file, so this holds some
 * 380,000 files; escaped as a JSON string (its quotes and line ends double) it still fits web mode's message limit.
 */
const CAMPAIGN_FILE_MAX_CHARS = 192 * 1024 * 1024;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

// Refinement messages are phrases: the message of a refusal puts the argument's name in front (invoke-arguments.ts).
const name = () =>
  z
    .string()
    .max(NAME_MAX_CHARS)
    .refine((text) => !CONTROL_CHARACTER.test(text), 'must not hold control characters (such as NUL or a line break)');
/** A NUL is never part of a path (Node refuses such paths); other characters are the file system's business. */
const path = () =>
  z
    .string()
    .max(PATH_MAX_CHARS)
    .refine((text) => !text.includes('\0'), 'must not hold a NUL character');
const link = () =>
  z
    .string()
    .max(PATH_MAX_CHARS)
    .refine((text) => !CONTROL_CHARACTER.test(text), 'must not hold control characters');
const document = () =>
  z
    .string()
    .max(CAMPAIGN_FILE_MAX_CHARS)
    .refine((text) => !text.includes('\0'), 'must not hold a NUL character');
/** Job ids and row positions (a number out of the safe range keeps zod's own check, worded by invoke-arguments.ts). */
const whole = () => z.int({ error: (issue) => (issue.code === 'invalid_type' ? 'must be a whole number' : undefined) });

/**
 * Channels without arguments. The renderer sends nothing (undefined, which JSON leaves out, so web mode sees it
 * missing) and some clients null; anything else is refused rather than ignored: a caller that passes arguments
 * where none are taken has the contract wrong, and saying so finds that sooner than an answer that seems to work.
 */
export const NO_ARGUMENTS = z
  .null()
  .optional()
  .transform((): undefined => undefined);

const filterValue = z.union([name(), z.number(), z.null()], { error: 'must be text or a number' }).optional();
const fileFilters = z.strictObject(Object.fromEntries(FILTER_NAMES.map((filter) => [filter, filterValue])) as Record<FilterName, typeof filterValue>);
const checkedFilters = z.strictObject(
  Object.fromEntries(FILTER_NAMES.map((filter) => [filter, name().optional()])) as Record<FilterName, z.ZodOptional<ReturnType<typeof name>>>,
);

const filesQuery = z.strictObject({ instrument: name(), product: name(), filters: fileFilters });
const campaignQuery = z.strictObject({ instrument: name(), product: name(), filters: checkedFilters });
const campaignDraft = {
  name: name(),
  folder: path().optional(),
  layout: name().optional(),
  queries: z.array(campaignQuery),
  autoSyncHours: z.number().nullable().optional(),
};

const resultSort = z.strictObject({ key: z.enum(RESULT_SORT_KEYS), direction: z.enum(['ascending', 'descending']) });
const resultSelection = z.strictObject({ sort: resultSort, ranges: z.array(z.strictObject({ first: whole().min(0), last: whole().min(0) })) });
const enqueueRequest = z.union(
  [
    z.strictObject({ searchId: name(), selection: resultSelection.optional(), folder: path().optional() }),
    z.strictObject({ query: filesQuery, folder: path().optional() }),
  ],
  // Said when the call matches neither form (neither key, or both), so that no one form's complaint misleads.
  { error: 'must name what to download: a searchId (with the chosen rows) or a query; only one' },
);

const job = z.strictObject({ id: whole() });
const jobPage = z.strictObject({
  offset: whole().min(0),
  limit: whole().min(1).max(JOB_PAGE_MAX_ROWS),
  states: z.array(z.enum(JOB_STATES)).nullable(),
  place: z.strictObject({ folder: path(), nested: z.boolean() }).nullable(),
  sort: z.strictObject({ key: z.enum(SORT_KEYS), direction: z.enum(['ascending', 'descending']) }).nullable(),
  counted: z.boolean(),
});
const campaign = z.strictObject({ name: name() });
const resultPage = z.strictObject({
  searchId: name(),
  offset: whole().min(0),
  limit: whole().min(1).max(RESULT_PAGE_MAX_ROWS),
  sort: resultSort,
});
const resultPositions = z
  .strictObject({ searchId: name(), sort: resultSort, first: whole().min(0), last: whole().min(0) })
  .refine(({ first, last }) => last >= first && last - first < RESULT_POSITIONS_MAX_ROWS, {
    message: `must be from first to ${(RESULT_POSITIONS_MAX_ROWS - 1).toLocaleString('en-US')} rows after it`,
    path: ['last'],
  });

/** A setting's label (how its refusals name it) and the type of its value. */
interface SettingArgument<T> {
  label: string;
  schema: z.ZodType<T>;
}

/**
 * The type of each kind of setting in the table. Ranges are the settings rules' business (they name the value
 * refused), but a value of the wrong type is refused here with the same sentence.
 */
function settingSchema(definition: SettingDefinition<unknown>): z.ZodType {
  switch (definition.kind) {
    case 'link':
      return link();
    case 'name':
    case 'text':
      return name();
    case 'path':
      return path();
    case 'whole':
      return z.number({ error: `must be a whole number ${rangeText(definition.range)}` });
    case 'choice':
      return z.enum(definition.choices as readonly string[] as [string, ...string[]], { error: `must be one of ${definition.choices.join(', ')}` });
    case 'switch':
      return z.boolean();
    case 'bounds':
      return z.strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number(), maximized: z.boolean() }).nullable();
  }
}

/** One entry per setting of the table, its label and the schema of its kind. */
export const SETTING_ARGUMENTS = Object.fromEntries(
  Object.entries(SETTING_DEFINITIONS).map(([key, definition]) => [
    key,
    { label: definition.label, schema: settingSchema(definition as SettingDefinition<unknown>) },
  ]),
) as { [K in keyof Settings]-?: SettingArgument<Settings[K]> };

const settingsChange = z.strictObject(
  Object.fromEntries(Object.entries(SETTING_ARGUMENTS).map(([key, argument]) => [key, argument.schema.optional()])) as {
    [K in keyof Settings]: z.ZodOptional<z.ZodType<Settings[K]>>;
  },
);

export const INVOKE_ARGUMENTS = {
  'app:info': NO_ARGUMENTS,
  'settings:get': NO_ARGUMENTS,
  'settings:update': settingsChange,
  'settings:choose-folder': NO_ARGUMENTS,
  'session:get': NO_ARGUMENTS,
  'session:sign-in': z.strictObject({ email: name() }),
  'session:sign-out': NO_ARGUMENTS,
  'catalog:instruments': NO_ARGUMENTS,
  'catalog:products': z.strictObject({ instrument: name() }),
  'catalog:product': z.strictObject({ instrument: name(), product: name() }),
  'search:start': filesQuery,
  'search:page': resultPage,
  'search:positions': resultPositions,
  'search:timeline': z.strictObject({ searchId: name() }),
  'search:downloaded': z.strictObject({ searchId: name() }),
  'search:cancel': z.strictObject({ searchId: name().optional() }),
  'downloads:enqueue': enqueueRequest,
  'downloads:snapshot': NO_ARGUMENTS,
  'downloads:page': jobPage,
  'downloads:folders': NO_ARGUMENTS,
  'downloads:finished-of': z.strictObject({ filenames: z.array(name()) }),
  'downloads:pause-all': NO_ARGUMENTS,
  'downloads:resume-all': NO_ARGUMENTS,
  'downloads:retry-failed': NO_ARGUMENTS,
  'downloads:clear-finished': NO_ARGUMENTS,
  'downloads:pause': job,
  'downloads:resume': job,
  'downloads:cancel': job,
  'downloads:retry': job,
  'downloads:move-to-front': job,
  'shell:choose-folder': z.strictObject({ current: path().optional() }),
  'shell:open-folder': z.strictObject({ path: path().optional() }),
  'shell:show-file': job,
  'shell:open-external': z.strictObject({ url: link() }),
  'files:read': job,
  'disk:free-space': z.strictObject({ folder: path().optional() }),
  'folders:list': z.strictObject({ path: path().optional(), showHidden: z.boolean().optional() }),
  'folders:create': z.strictObject({ parent: path(), name: path() }),
  'campaigns:list': NO_ARGUMENTS,
  'campaigns:create': z.strictObject(campaignDraft),
  'campaigns:update': z.strictObject({ name: name(), change: z.strictObject(campaignDraft).partial() }),
  'campaigns:delete': campaign,
  'campaigns:files': campaign,
  'campaigns:sync': campaign,
  'campaigns:cancel-sync': campaign,
  'campaigns:verify': campaign,
  'campaigns:cancel-verify': campaign,
  'campaigns:export': z.strictObject({ name: name(), format: z.enum(CAMPAIGN_EXPORT_FORMATS), includeFiles: z.boolean().optional() }),
  'campaigns:import': z.strictObject({ text: document(), folder: path().optional(), name: name().optional() }),
} satisfies Record<InvokeChannel, z.ZodType>;

// The schemas held to the contract: what a schema lets through must be exactly the channel's argument type (no
// looser, no stricter), and everything that type allows must pass. A channel whose schema drifts is named in the
// type error below; a channel without a schema fails the `satisfies` above.
type Wire<T> = [T] extends [void] ? undefined : T;
type Agrees<C extends InvokeChannel> = [z.output<(typeof INVOKE_ARGUMENTS)[C]>] extends [Wire<ArgsOf<C>>]
  ? [Wire<ArgsOf<C>>] extends [z.output<(typeof INVOKE_ARGUMENTS)[C]>]
    ? [Wire<ArgsOf<C>>] extends [z.input<(typeof INVOKE_ARGUMENTS)[C]>]
      ? true
      : false
    : false
  : false;
type Disagreeing = { [C in InvokeChannel]: Agrees<C> extends true ? never : C }[InvokeChannel];
/** @public Exported so the compiler keeps it: nothing reads it, the check is its type. */
export const SCHEMAS_MATCH_CONTRACT: [Disagreeing] extends [never] ? true : { schemaDisagreesWith: Disagreeing } = true;
