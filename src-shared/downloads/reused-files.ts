// Files an enqueue took from another folder instead of fetching them (reuse-finder.ts), and how a summary says so.

export interface ReusedFiles {
  /** Files copied (or hard-linked) from a finished download in another folder. */
  count: number;
  /** The folders they came from, each once, in the order first used. */
  from: string[];
}

/** "reused 3 from /data/kcor" or "reused 186 from 2 folders", as a summary says it. */
export function reusedWording(reused: ReusedFiles): string {
  const from = reused.from.length === 1 ? reused.from[0]! : `${reused.from.length} folders`;
  return `reused ${reused.count} from ${from}`;
}

/** The tally of files reused, each from its folder. */
export function tallyReused(files: readonly { from: string }[]): ReusedFiles {
  return { count: files.length, from: [...new Set(files.map((file) => file.from))] };
}
