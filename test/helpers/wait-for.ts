// The one way tests wait: on a fact (a counter, a file, a state), polled, never on a fixed time; failing with what
// was awaited once the time is up. The specs' waitUntil (test/e2e/specs/ui-helpers.ts) is this with the page's
// answers, which can fail while the page changes, counted as "not yet". It pauses with Node's own timers
// (timers/promises) and reads the process clock (performance.now()), neither of which a test's fake clock
// (vi.useFakeTimers without 'performance') replaces, so it also waits under one.
import { setTimeout as pause } from 'node:timers/promises';

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000, intervalMs = 20): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(intervalMs);
  }
}
