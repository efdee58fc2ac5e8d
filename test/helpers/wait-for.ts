// The one way tests wait: on a fact (a counter, a file, a state), polled, never on a fixed time; failing with what
// was awaited once the time is up. The specs' waitUntil (test/e2e/specs/ui-helpers.ts) is this with the page's
// answers, which can fail while the page changes, counted as "not yet".
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
