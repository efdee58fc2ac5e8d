// Entry of dist/bench/search-stall-probe.js: `node search-stall-probe.js` searches a million files in the emulator
// through the app core and prints the event loop's longest stalls as one JSON line (see search-stall-probe.ts).
import { runSearchStallProbe } from './search-stall-probe';

runSearchStallProbe()
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .catch((error: unknown) => {
    console.error(`search-stall-probe: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
