// The filter options of every command that names a set of files (`files`, `campaign create`, `campaign add`),
// made from the shared filter table, and read back from it: a filter in the table is an option of each of those
// commands and reaches the request, with no list here to update. Light: loaded at start-up with the program.
import { Option, type Command } from 'commander';
import type { FileFilters } from '../../src-shared/filters/filter-rules';
import { FILTER_DEFINITIONS, type FilterDefinition, type FilterOptionSpec } from '../../src-shared/filters/filter-table';

/** `carrington-rotation` -> `carringtonRotation`, the key commander stores an option's value under. */
type CamelCase<Text extends string> = Text extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Text;
type AliasesOf<Spec> = Spec extends { hiddenAliases: readonly (infer Alias extends string)[] } ? Alias : never;
type FilterFlag = FilterOptionSpec['long'] | AliasesOf<FilterOptionSpec>;

/** The parsed values of the filter options, as commander gives them: `{ startDate?, carringtonRotation?, cr?, ... }`. */
export type FilterOptions = { readonly [Flag in FilterFlag as CamelCase<Flag>]?: string };

/** The options of one filter: its shown flag first, then its hidden aliases. */
function optionsOf(filter: FilterDefinition): Option[] {
  const { long, short, value, description, hiddenAliases = [] } = filter.option;
  const also = hiddenAliases.length > 0 ? ` (also ${hiddenAliases.map((alias) => `--${alias}`).join(', ')})` : '';
  const shown = new Option(`${short ? `-${short}, ` : ''}--${long} <${value}>`, `${description}${also}`);
  return [shown, ...hiddenAliases.map((alias) => new Option(`--${alias} <${value}>`).hideHelp())];
}

/** Adds an option for every filter of the table, in the order of mlsoapi's help. */
export function addFilterOptions(command: Command): Command {
  const inHelpOrder = [...FILTER_DEFINITIONS].sort((a, b) => a.option.helpOrder - b.option.helpOrder);
  for (const filter of inHelpOrder) {
    for (const option of optionsOf(filter)) command.addOption(option);
  }
  return command;
}

/** The filters typed on a command that called addFilterOptions; the shown flag wins over a hidden alias. */
export function filtersFrom(options: FilterOptions): FileFilters {
  const values: Readonly<Record<string, unknown>> = options;
  const filters: FileFilters = {};
  for (const filter of FILTER_DEFINITIONS) {
    const typed = optionsOf(filter)
      .map((option) => values[option.attributeName()])
      .find((value) => value !== undefined);
    filters[filter.name] = typeof typed === 'string' ? typed : undefined;
  }
  return filters;
}
