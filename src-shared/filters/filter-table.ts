// The one table of the files endpoint's filters: each filter's name, label, command-line option and form field.
// The rules (filter-rules.ts), the command line's options (src-main/cli/filter-options.ts), the app's fields
// and their hints (filter-hints.ts) are all read from it, so a filter added here is added everywhere, and
// TypeScript names any per-filter rule or hint still missing. A leaf module: the command line loads it at start-up.
import { DATE_FORMS } from './ut-timestamp';
import { EVERY_EXAMPLE_TEXT } from './every';

export const WAVE_REGIONS = ['637', '706', '789', '1074', '1079'] as const;

/** A filter's command-line option; commander gives its value under the camel-cased long name (`carringtonRotation`). */
interface FilterOption {
  /** The long flag without its dashes. */
  long: string;
  /** The one-letter flag without its dash, when the filter has one. */
  short?: string;
  /** The value's name in the help, e.g. `date` in `--start-date <date>`. */
  value: string;
  description: string;
  /** Further long flags with the same meaning, parsed but left out of the help (mlsoapi's `--cr`). */
  hiddenAliases?: readonly string[];
  /** Place among the filter options in `files --help`; mlsoapi's order, which differs from the form's. */
  helpOrder: number;
}

/** A field typed freely. */
interface TextField {
  kind: 'text';
  inputMode?: 'numeric';
  placeholder?: string;
  /** A unit shown at the field's end, e.g. UT. */
  suffix?: string;
  monospace?: boolean;
}

/** A field chosen from a fixed list, with an empty choice meaning "not set". */
interface SelectField {
  kind: 'select';
  emptyLabel: string;
  choices: readonly { value: string; label: string }[];
}

export interface FilterDefinition<Name extends string = string> {
  /** The files endpoint's query parameter. */
  name: Name;
  /** The name people see: the app's field label, and the start of the rules' messages. */
  label: string;
  /** Offered when a product's metadata does not list its filters, and before a product is chosen. */
  basic: boolean;
  option: FilterOption;
  field: TextField | SelectField;
}

const DATE_FIELD: TextField = { kind: 'text', placeholder: 'YYYY-MM-DD', suffix: 'UT', monospace: true };

/** In the order the app shows the fields and the rules report problems. */
const FILTER_TABLE = [
  {
    name: 'start-date',
    label: 'Start date',
    basic: true,
    option: { long: 'start-date', short: 's', value: 'date', description: `start date, ${DATE_FORMS}`, helpOrder: 3 },
    field: DATE_FIELD,
  },
  {
    name: 'end-date',
    label: 'End date',
    basic: true,
    option: { long: 'end-date', short: 'e', value: 'date', description: `end date, ${DATE_FORMS}`, helpOrder: 4 },
    field: DATE_FIELD,
  },
  {
    name: 'cr',
    label: 'Carrington rotation',
    basic: true,
    option: { long: 'carrington-rotation', short: 'c', value: 'n', description: 'Carrington rotation number', hiddenAliases: ['cr'], helpOrder: 5 },
    field: { kind: 'text', inputMode: 'numeric' },
  },
  {
    name: 'every',
    label: 'Every',
    basic: true,
    option: {
      long: 'every',
      value: 'period',
      description: `the first file of each period of the UT clock (e.g. 2hours, 1day, 30minutes), so two can be minutes apart: ${EVERY_EXAMPLE_TEXT}`,
      helpOrder: 6,
    },
    field: { kind: 'text' },
  },
  {
    name: 'wave-region',
    label: 'Wave region',
    basic: false,
    option: { long: 'wave-region', value: 'region', description: `wave region (${WAVE_REGIONS.join(', ')})`, helpOrder: 1 },
    field: { kind: 'select', emptyLabel: 'Any', choices: WAVE_REGIONS.map((region) => ({ value: region, label: `${region} nm` })) },
  },
  {
    name: 'obs-plan',
    label: 'Observing plan',
    basic: false,
    option: { long: 'obs-plan', value: 'plan', description: 'observing plan, e.g. synoptic or waves', helpOrder: 2 },
    field: { kind: 'text' },
  },
] as const satisfies readonly FilterDefinition[];

export type FilterName = (typeof FILTER_TABLE)[number]['name'];
/** A filter's command-line option as the table writes it: its long name and hidden aliases as literal types. */
export type FilterOptionSpec = (typeof FILTER_TABLE)[number]['option'];

/** The table read entry by entry, with every optional part visible to the type checker. */
export const FILTER_DEFINITIONS: readonly FilterDefinition<FilterName>[] = FILTER_TABLE;

export const FILTER_NAMES: readonly FilterName[] = FILTER_DEFINITIONS.map((filter) => filter.name);

export const FILTERS_BY_NAME = Object.fromEntries(FILTER_DEFINITIONS.map((filter) => [filter.name, filter])) as Readonly<
  Record<FilterName, FilterDefinition<FilterName>>
>;
