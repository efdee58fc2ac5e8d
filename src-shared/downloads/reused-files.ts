// Files an enqueue took from another folder instead of fetching them (reuse-finder.ts), and how a summary says so.

export interface ReusedFiles {
  /** Files copied (or hard-linked) from a finished download in another folder. */
  count: number;
  /** The folders they came from, each once, in the order first used. */
  from: string[];
  /** Of those, the files copied where a hard link was asked, and why the first of them could not be linked. */
  notLinked?: { count: number; why: string };
}

/** "reused 3 from /data/kcor" or "reused 186 from 2 folders", as a summary says it, with the copies made instead of links. */
export function reusedWording(reused: ReusedFiles): string {
  const from = reused.from.length === 1 ? reused.from[0]! : `${reused.from.length} folders`;
  const notLinked = reused.notLinked ? ` (${reused.notLinked.count} copied, not linked: ${reused.notLinked.why})` : '';
  return `reused ${reused.count} from ${from}${notLinked}`;
}

/** The tally of files reused, each from its folder (with why, where a hard link was asked and a copy made). */
export function tallyReused(files: readonly { from: string; notLinked?: string }[]): ReusedFiles {
  const tally: ReusedFiles = { count: files.length, from: [...new Set(files.map((file) => file.from))] };
  const copies = files.filter((file) => file.notLinked !== undefined);
  if (copies.length > 0) tally.notLinked = { count: copies.length, why: copies[0]!.notLinked! };
  return tally;
}
