// Process entry of mlso-dl: wires Ctrl-C to cancellation and turns the result into the exit status.
import { runCli } from './run-cli';

const interrupt = new AbortController();
let interrupts = 0;
const onSignal = (): void => {
  interrupts += 1;
  // A second Ctrl-C means "now": leave without waiting for clean-up.
  if (interrupts > 1) process.exit(130);
  interrupt.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const status = await runCli(process.argv.slice(2), { signal: interrupt.signal });
process.exitCode = status;
// Keep-alive sockets would hold the process open for a while; nothing is left to do.
setImmediate(() => process.exit(status));
