// Counts for people, the same in the window and in the shared hints: thousands separated, a noun that agrees.

const COUNT = new Intl.NumberFormat('en-US');

/** 1234 -> "1,234". */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** "1 file", "1,234 files". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}
