// Files an enqueue took from another folder instead of fetching them (reuse-finder.ts), and how a summary says so.
import { formatCount } from '../format/counts';

export interface ReusedFiles {
  /** Files copied (or hard-linked) from a finished download in another folder. */
  count: number;
  /** The folders they came from, each once, in the order first used. */
  from: string[];
  /** Of those, the files copied where a hard link was asked, and why the first of them could not be linked. */
  notLinked?: { count: number; why: string };
}

/**
 * "3 reused from /data/kcor" or "186 reused from 2 folders", as every summary says it (a campaign's sync, `files
 * --download`, the app's notice), with the copies made instead of links; "3 reused" when the folders are not known (a
 * report of an older version).
 */
export function reusedWording(reused: ReusedFiles): string {
  const count = `${formatCount(reused.count)} reused`;
  const notLinked = reused.notLinked ? ` (${formatCount(reused.notLinked.count)} copied, not linked: ${reused.notLinked.why})` : '';
  if (reused.from.length === 0) return `${count}${notLinked}`;
  return `${count} from ${reused.from.length === 1 ? reused.from[0]! : `${reused.from.length} folders`}${notLinked}`;
}

/** The tally of files reused, each from its folder (with why, where a hard link was asked and a copy made). */
export function tallyReused(files: readonly { from: string; notLinked?: string }[]): ReusedFiles {
  const tally: ReusedFiles = { count: files.length, from: [...new Set(files.map((file) => file.from))] };
  const copies = files.filter((file) => file.notLinked !== undefined);
  if (copies.length > 0) tally.notLinked = { count: copies.length, why: copies[0]!.notLinked! };
  return tally;
}
