// Files an enqueue took from another folder instead of fetching them (reuse-finder.ts), and how a summary says so.
import { formatCount } from '../format/counts';

export interface ReusedFiles {
  /** Files copied (or hard-linked) from a finished download in another folder. */
  count: number;
  /** The folders they came from, each once, in the order first used. */
  from: string[];
}

/**
 * "3 reused from /data/kcor" or "186 reused from 2 folders", as every summary says it (a campaign's sync, `files
 * --download`, the app's notice); "3 reused" when the folders are not known (a report of an older version).
 */
export function reusedWording(reused: ReusedFiles): string {
  const count = `${formatCount(reused.count)} reused`;
  if (reused.from.length === 0) return count;
  return `${count} from ${reused.from.length === 1 ? reused.from[0]! : `${reused.from.length} folders`}`;
}

/** The tally of files reused, each from its folder. */
export function tallyReused(files: readonly { from: string }[]): ReusedFiles {
  return { count: files.length, from: [...new Set(files.map((file) => file.from))] };
}
