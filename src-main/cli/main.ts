// Process entry of mlso-dl: a stop signal becomes a clean cancellation, the result the exit status, and the
// process leaves once its output has reached the reader.
import { EXIT_FAILURE, EXIT_OK, Interruption, STOP_SIGNALS, exitStatusForSignal, type StopSignal } from './exit-codes';
import { watchProcessOutput } from './output/process-output';
import { runCli } from './run-cli';

const output = watchProcessOutput();
const interrupt = new AbortController();
let finished = false;

const onSignal = (signal: StopSignal): void => {
  // A second signal means "now", and so does any signal once only the output is left to flush.
  if (interrupt.signal.aborted || finished) leaveNow(exitStatusForSignal(signal));
  interrupt.abort(new Interruption(signal));
};
for (const signal of STOP_SIGNALS) process.on(signal, onSignal);

// A function rather than top-level await: the bundle is a CommonJS script (scripts/build-main.mjs says why).
void (async () => {
  let status = await runCli(process.argv.slice(2), { signal: interrupt.signal });
  finished = true;
  // A run a signal stopped leaves without waiting for its output: the reader may have stopped reading (a paused pager).
  if (interrupt.signal.aborted) leaveNow(status);
  await output.flushed();
  const failure = output.failure();
  if (failure !== undefined) {
    process.stderr.write(`mlso-dl: ${failure}\n`);
    if (status === EXIT_OK) status = EXIT_FAILURE;
    await output.flushed();
  }
  // Keep-alive sockets would hold the process open for a while; nothing is left to do.
  process.exit(status);
})();

function leaveNow(status: number): never {
  // The progress bars hide the cursor; a forced exit must not leave the terminal without one.
  if (process.stderr.isTTY) process.stderr.write('\u001b[?25h');
  process.exit(status);
}
