// Picks a time window holding exactly the number of files the benchmark wants, from the emulator's real listing:
// a window guessed from the cadence could be off by one at either edge (inclusive or exclusive end, a file
// sitting on the boundary), and a batch of 59 files would make every number quietly wrong.
import type { ListedFile } from './cli-summaries';
import type { FileQuery } from './mlso-dl-cli';

type Lister = (query: FileQuery) => Promise<ListedFile[]>;

const formatUt = (date: Date): string => date.toISOString().slice(0, 19);

export async function windowWithExactly(
  count: number,
  base: Omit<FileQuery, 'end'>,
  cadenceSeconds: number,
  list: Lister,
): Promise<{ query: FileQuery; files: ListedFile[] }> {
  const start = new Date(`${base.start}Z`);
  const guess: FileQuery = { ...base, end: formatUt(new Date(start.getTime() + count * cadenceSeconds * 1000)) };
  const guessed = await list(guess);
  if (guessed.length === count) return { query: guess, files: guessed };

  // Adjust: list a wider window, then end halfway between the last wanted file and the next one, so the count
  // is right whether the service treats the end as inclusive or exclusive.
  const wide = await list({ ...base, end: formatUt(new Date(start.getTime() + (2 * count + 4) * cadenceSeconds * 1000)) });
  const sorted = [...wide].sort((a, b) => a['date-obs'].localeCompare(b['date-obs']));
  const last = sorted[count - 1];
  const next = sorted[count];
  if (!last || !next) {
    throw new Error(
      `Need ${count} ${base.instrument} ${base.product} files from ${base.start}; the emulator lists only ${sorted.length} in a window twice that long.`,
    );
  }
  const lastAt = new Date(`${last['date-obs']}Z`).getTime();
  const nextAt = new Date(`${next['date-obs']}Z`).getTime();
  const adjusted: FileQuery = { ...base, end: formatUt(new Date(Math.floor((lastAt + nextAt) / 2000) * 1000)) };
  const files = await list(adjusted);
  if (files.length !== count) {
    throw new Error(
      `Could not find a window with exactly ${count} ${base.instrument} ${base.product} files: ${guess.start}..${guess.end} lists ${guessed.length}, ${adjusted.start}..${adjusted.end} lists ${files.length}.`,
    );
  }
  return { query: adjusted, files };
}

/** For the big-file runs the window is fixed (whole days); the count is checked all the same. */
export async function expectExactly(count: number, query: FileQuery, list: Lister): Promise<ListedFile[]> {
  const files = await list(query);
  if (files.length !== count) {
    throw new Error(`Expected ${count} ${query.instrument} ${query.product} file(s) from ${query.start} to ${query.end}, the emulator lists ${files.length}.`);
  }
  return files;
}
