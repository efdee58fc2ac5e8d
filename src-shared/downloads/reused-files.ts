// Files an enqueue took from another folder instead of fetching them (reuse-finder.ts), and how a summary says so.

export interface ReusedFiles {
  /** Files copied (or hard-linked) from a finished download in another folder. */
  count: number;
  /** The folders they came from, each once, in the order first used. */
  from: string[];
}

/** The tally of files reused, each from its folder. */
export function tallyReused(files: readonly { from: string }[]): ReusedFiles {
  return { count: files.length, from: [...new Set(files.map((file) => file.from))] };
}
