// Accessibility, measured: axe-core on every screen the navigation rail offers, in the light and the dark theme.
// Serious and critical violations fail the spec, each listed with where it is; the rest are written to the report.
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { listedNames, search } from './downloads.spec';
import { goTo, signIn, visible, waitUntil } from './ui-helpers';

const BLOCKING = new Set(['serious', 'critical']);
const SCHEMES = ['light', 'dark'] as const;
/** The window the screenshots show, and a short one in which the lists overflow and scroll. */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1280, height: 480 },
] as const;
/** An experimental axe rule (off by default) for a fault this app had: a control named unlike its visible label. */
const EXTRA_RULES = { 'label-content-name-mismatch': { enabled: true } };

export interface AccessibilityFinding {
  screen: string;
  scheme: (typeof SCHEMES)[number];
  viewport: string;
  rule: string;
  impact: string;
  help: string;
  /** Where: one CSS selector per offending element, with axe's summary of what is wrong there. */
  nodes: string[];
}

/** The rail's entries that open a screen now (a disabled one, such as a screen still to come, has nothing to check). */
async function screenEntries(page: Page): Promise<{ screen: string; entry: Locator }[]> {
  const entries: { screen: string; entry: Locator }[] = [];
  for (const entry of await page.getByRole('navigation', { name: 'Screens' }).getByRole('button').all()) {
    // The visible label is the first line; badges with counts may follow it.
    if (await entry.isEnabled()) entries.push({ screen: (await entry.innerText()).split('\n')[0]!.trim(), entry });
  }
  return entries;
}

export async function findingsOn(page: Page, where: Pick<AccessibilityFinding, 'screen' | 'scheme' | 'viewport'>): Promise<AccessibilityFinding[]> {
  // Legacy mode runs axe in the page itself: the window has no frames, and the default mode needs a second page
  // of a browser context, which neither the web suite's page nor Electron's window has.
  const results = await new AxeBuilder({ page }).setLegacyMode().options({ rules: EXTRA_RULES }).analyze();
  return results.violations.map((violation) => ({
    ...where,
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
  }));
}

function described(finding: AccessibilityFinding): string {
  return `${finding.screen} (${finding.scheme}, ${finding.viewport}) ${finding.rule} [${finding.impact}] ${finding.help}\n    ${finding.nodes.join('\n    ')}`;
}

/** Runs axe on every screen in both themes and both window sizes; returns every finding, blocking or not. */
export async function checkEveryScreen(page: Page): Promise<AccessibilityFinding[]> {
  const findings: AccessibilityFinding[] = [];
  const original = page.viewportSize();
  try {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const { screen, entry } of await screenEntries(page)) {
          await entry.click();
          await visible(page.getByRole('region', { name: screen, exact: true }));
          for (const finding of await findingsOn(page, { screen, scheme, viewport: `${viewport.width}x${viewport.height}` })) findings.push(finding);
        }
      }
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    if (original) await page.setViewportSize(original);
  }
  return findings;
}

/**
 * Leaves the queue with a file in each state the screens colour (done, failed, paused, waiting while the queue is
 * paused), so the rail's badges, the state chips and every tab's count are on screen when axe looks. Returns how
 * to let the queue finish afterwards.
 */
async function queueInEveryState({ page, demoEmail, emulator }: E2eContext): Promise<() => Promise<void>> {
  await signIn(page, demoEmail);
  // Files no earlier spec downloaded (another seed moves every exposure time, so every name): a file finished
  // before would be taken from its folder instead of fetched, and neither fail nor be on its way.
  emulator.setOptions({ seed: emulator.options.seed + 1 });
  await search(page, { 'Start date': '2025-03-20', 'End date': '2025-03-21', Every: '1hour' });
  const names = await listedNames(page, '20250320');
  emulator.injectFault(names[0]!, 'status-404', 1);
  emulator.setOptions({ bandwidthBytesPerSecond: 2_000 });
  await page.getByRole('button', { name: 'Download all' }).click();
  await goTo(page, 'Downloads');
  // The list holds the earlier specs' files too; the tabs' counts and filters find this run's.
  const tab = (name: string) => page.getByRole('radio', { name: new RegExp(`^${name} [1-9]`) });
  await waitUntil('a file failed and others are on their way', async () => (await tab('Failed').count()) > 0 && emulator.stats().activeDownloads > 0);
  await page.getByRole('radio', { name: /^Active/ }).click();
  await (await visible(page.getByRole('table', { name: 'Download queue' }).getByRole('button', { name: /^Pause \d/ }))).click();
  await waitUntil('a file is paused', async () => (await tab('Paused').count()) > 0);
  await page.getByRole('button', { name: 'Pause all' }).click();
  await waitUntil('no download is running', async () => emulator.stats().activeDownloads === 0);
  await page.getByRole('radio', { name: /^All/ }).click();
  return async () => {
    emulator.setOptions({ bandwidthBytesPerSecond: 0 });
    await goTo(page, 'Downloads');
    await page.getByRole('button', { name: 'Resume all' }).click();
    await page.getByRole('button', { name: 'Retry failed' }).click();
    await waitUntil('the queue is idle again', async () => (await page.getByRole('contentinfo').getByText('Idle', { exact: true }).count()) > 0, 30_000);
  };
}

export async function meetsAccessibilityRulesOnEveryScreen(context: E2eContext): Promise<void> {
  const { page, saveResult, screenshot } = context;
  const finish = await queueInEveryState(context);
  await screenshot('downloads-every-state');
  let findings: AccessibilityFinding[];
  try {
    findings = await checkEveryScreen(page);
  } finally {
    await finish();
  }
  await saveResult('accessibility.json', `${JSON.stringify(findings, null, 2)}\n`);
  const blocking = findings.filter((finding) => BLOCKING.has(finding.impact));
  expect(blocking.map(described).join('\n'), 'serious or critical accessibility violations').toBe('');
}
