// Counts for people, the same in the app and in the shared hints: thousands separated, a noun that agrees.

// Made on first use: the first number format of a process loads ICU's locale data, which every start of the
// command line would pay (this module loads with the engine) whether or not it printed a count.
let count: Intl.NumberFormat | undefined;

/** 1234 -> "1,234". */
export function formatCount(value: number): string {
  count ??= new Intl.NumberFormat('en-US');
  return count.format(value);
}

/** "1 file", "1,234 files". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
