// The process's own stdout and stderr. Writes into a pipe complete later than they return, so mlso-dl
// may leave only once they have reached the reader. A reader that left early (EPIPE: `| head -1`) has
// simply seen enough; any other write failure (a full disk behind `> listing.json`) cuts the result short,
// and the run must not end as a success.

export interface ProcessOutput {
  /** Resolves once everything written so far has been handed to the reader, or can never be. */
  flushed(): Promise<void>;
  /** Why standard output could not be written, as a plain sentence; undefined while it could. */
  failure(): string | undefined;
}

type OutputStream = NodeJS.WritableStream & { destroyed?: boolean; writableLength?: number };

export function watchProcessOutput(stdout: OutputStream = process.stdout, stderr: OutputStream = process.stderr): ProcessOutput {
  let failure: string | undefined;
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || failure !== undefined) return;
    failure = `The output could not be written (${error.code ?? error.message}), so it is incomplete. Check where it goes (a full disk?) and run the command again.`;
  });
  // Nothing can be told about a broken stderr: the error listener only keeps it from crashing the process.
  stderr.on('error', () => undefined);
  return {
    flushed: () => Promise.all([drained(stdout), drained(stderr)]).then(() => undefined),
    failure: () => failure,
  };
}

/** An empty write completes after every write before it: the stream's writes are done in order. */
function drained(stream: OutputStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) return resolve();
    stream.write('', () => resolve());
  });
}
