// Seeing what was fetched: a few emulator files downloaded, one opened in the quick-look from the Downloads list
// (decoded in the FITS worker, drawn recognisably: a dark occulter inside a bright corona), then all of them in
// the sequence player from Browse, stepped with the arrow keys. Screenshots: quicklook-*.png, player-*.png.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { findingsOn } from './accessibility.spec';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'fast-png';
import { atEachSizeAndScheme, chooseProduct, fillFilter, goTo, signIn, visible, waitUntil } from './ui-helpers';

const BLOCKING = new Set(['serious', 'critical']);
/** NRGF files: no other spec downloads them, so these are new downloads whatever ran before. */
const NRGF_NAME = /^\d{8}_\d{6}_kcor_l2_nrgf\.fts$/;
const DAY = '2025-03-22';
const NEXT_DAY = '2025-03-23';

/** Searches a day of KCor NRGF every 30 minutes and returns the names listed. */
async function listNrgfFiles(page: Page): Promise<string[]> {
  await chooseProduct(page, 'kcor', 'nrgf');
  return listDay(page, NRGF_NAME, DAY, NEXT_DAY, '30minutes');
}

/** Searches the product chosen from `day` to `nextDay` at the cadence `every`; returns the names matching `name`. */
async function listDay(page: Page, name: RegExp, day: string, nextDay: string, every: string): Promise<string[]> {
  for (const [label, value] of [
    ['Start date', day],
    ['End date', nextDay],
    ['Carrington rotation', ''],
    ['Every', every],
  ] as const)
    await fillFilter(page, label, value);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const cells = page.getByRole('grid', { name: 'Files found' }).getByText(name);
  let names: string[] = [];
  await waitUntil(`the results show files of ${day} named ${name}`, async () => {
    names = await cells.allInnerTexts();
    return names.length > 0 && names.every((each) => each.startsWith(day.replaceAll('-', '')));
  });
  return names;
}

/** Brightness of a drawn canvas: mean grey of its centre (the occulter), of a ring around it, and distinct levels. */
interface CanvasLook {
  width: number;
  height: number;
  centre: number;
  ring: number;
  corners: number;
  levels: number;
}

/** The parts of a canvas read here (this file is type-checked without the DOM library). */
interface PageCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray } } | null;
}

function lookOf(canvas: Locator): Promise<CanvasLook> {
  return canvas.evaluate((element) => {
    const drawn = element as unknown as PageCanvas;
    const { width, height } = drawn;
    const pixels = drawn.getContext('2d')!.getImageData(0, 0, width, height).data;
    const cx = (width - 1) / 2;
    const cy = (height - 1) / 2;
    const sun = width / 6;
    const zones = { centre: { sum: 0, count: 0 }, ring: { sum: 0, count: 0 }, corners: { sum: 0, count: 0 } };
    const levels = new Set<number>();
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const grey = pixels[(y * width + x) * 4]!;
        levels.add(grey);
        const r = Math.hypot(x - cx, y - cy);
        const zone = r < 0.8 * sun ? zones.centre : r > 1.2 * sun && r < 1.6 * sun ? zones.ring : r > 0.45 * width ? zones.corners : null;
        if (zone) {
          zone.sum += grey;
          zone.count += 1;
        }
      }
    }
    const mean = ({ sum, count }: { sum: number; count: number }) => sum / Math.max(1, count);
    return { width, height, centre: mean(zones.centre), ring: mean(zones.ring), corners: mean(zones.corners), levels: levels.size };
  });
}

/** The quick-look is recognisable as a coronagraph image: black occulter, bright inner corona fading outwards. */
function expectCorona(look: CanvasLook): void {
  expect(look.centre).toBeLessThan(10);
  expect(look.ring).toBeGreaterThan(120);
  expect(look.corners).toBeLessThan(look.ring);
  expect(look.corners).toBeGreaterThan(look.centre);
  expect(look.levels).toBeGreaterThan(50);
}

async function drawnCanvas(dialog: Locator, name: RegExp): Promise<Locator> {
  const canvas = await visible(dialog.getByRole('img', { name }));
  await waitUntil('the canvas is drawn', async () => (await canvas.getAttribute('data-drawn')) !== null);
  return canvas;
}

async function expectNoBlockingViolations(page: Page, where: string): Promise<void> {
  const blocking: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const finding of await findingsOn(page, { screen: where, scheme, viewport: '1280x800' })) {
      if (BLOCKING.has(finding.impact)) blocking.push(`${finding.rule} [${finding.impact}] ${finding.help}\n    ${finding.nodes.join('\n    ')}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(blocking.join('\n'), `serious or critical accessibility violations in the ${where}`).toBe('');
}

export async function looksAtDownloadedFilesAndPlaysThem({ page, demoEmail, screenshot }: E2eContext): Promise<void> {
  await signIn(page, demoEmail);
  const names = await listNrgfFiles(page);
  expect(names.length).toBeGreaterThanOrEqual(4);
  await page.getByRole('button', { name: 'Download all' }).click();
  await goTo(page, 'Downloads');
  const table = page.getByRole('table', { name: 'Download queue' });
  // This run's files are the last in the queue.
  const scrollToEnd = () => table.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await waitUntil(
    'every file of the search is done',
    async () => {
      await scrollToEnd();
      return (await table.getByRole('button', { name: /^Quick look at \d{8}_\d{6}_kcor_l2_nrgf/ }).count()) === names.length;
    },
    30_000,
  );

  // Thumbnails: the finished rows in view get a small picture.
  const lastRow = table.getByRole('row').filter({ hasText: names.at(-1)! });
  await waitUntil('the last row has its thumbnail', async () => (await lastRow.locator('canvas[data-drawn]').count()) === 1);

  await table.getByRole('button', { name: `Quick look at ${names[0]}` }).click();
  const quickLook = await visible(page.getByRole('dialog', { name: new RegExp(`^Quick look ${names[0]}`) }));
  const canvas = await drawnCanvas(quickLook, /^Image of/);
  // Decoded off the window's thread: the FITS worker runs, started from the blob the app's own script made.
  const workers = await Promise.all(page.workers().map(async (worker) => ({ name: await worker.evaluate('self.name'), url: worker.url() })));
  expect(workers.filter(({ name }) => name === 'fits-viewer').map(({ url }) => url.split(':')[0])).toEqual(['blob']);
  const look = await lookOf(canvas);
  expect([look.width, look.height]).toEqual([64, 64]);
  expectCorona(look);
  await visible(quickLook.getByRole('row', { name: new RegExp(`^DATE-OBS ${names[0]!.slice(0, 4)}-`) }));
  // The readout under the pointer: a quarter of the image's side west of the centre (the image is letterboxed
  // in the canvas's box, centred), about 1.5 solar radii out at a position angle near 270 degrees.
  const box = (await canvas.boundingBox())!;
  const side = Math.min(box.width, box.height);
  await page.mouse.move(box.x + box.width / 2 + side / 4, box.y + box.height / 2);
  const readout = quickLook.getByTestId('pixel-readout');
  await waitUntil('the readout shows the pixel under the pointer', async () => /R☉/.test((await readout.textContent()) ?? ''));
  expect(await readout.textContent()).toMatch(/^Pixel (4[6-9]|50), 3[1-4]-?\d.*B\/Bsunx \d+\.\d″ y -?\d+\.\d″1\.[3-7]\d\d R☉PA 2[6-7]\d\.\d°$/);
  await screenshot('quicklook-1280x800-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot('quicklook-1280x800-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Overlays and a colour map, from the keyboard: the limb and circles land where the header says the Sun is.
  await chooseOverlays(quickLook, 'soholasco2', '1.5, 2, 3', { colourBar: true });
  const overlay = quickLook.getByTestId('image-overlay');
  await waitUntil('the limb and three circles are drawn', async () => (await overlay.locator('polygon').count()) === 4);
  await visible(quickLook.getByRole('figure', { name: /^Colour bar: / }));
  await page.mouse.move(box.x + box.width / 2 + side / 4, box.y + box.height / 2 + 1);
  await screenshot('quicklook-overlays-1280x800-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot('quicklook-overlays-1280x800-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Save image: the figure at 512 pixels across, titled, with the overlays and colour bar shown, as a PNG.
  await quickLook.getByRole('button', { name: 'Save image…' }).click();
  const savePanel = await visible(quickLook.getByRole('group', { name: 'Save image' }));
  expect(await savePanel.getByRole('textbox', { name: 'Title' }).inputValue()).toMatch(/^COSMO K-Coronagraph nrgf · 2025-03-\d\d \d\d:\d\d:\d\d UT$/);
  await savePanel.getByRole('combobox', { name: 'Size' }).selectOption('512');
  await screenshot('quicklook-save-image-1280x800-light');
  const [download] = await Promise.all([page.waitForEvent('download'), savePanel.getByRole('button', { name: 'Save PNG' }).click()]);
  expect(download.suggestedFilename()).toBe(`${names[0]!.replace(/\.fts$/, '')}.png`);
  const saved = decode(await readFile((await download.path())!));
  // 512 pixels of picture, 10-pixel margins, a 24-pixel title band and a 38-pixel colour bar band (text 12 px).
  expect([saved.width, saved.height]).toEqual([532, 512 + 20 + 24 + 38]);
  // Again with axes in arcsec, light and dark: the frame, ticks and labels take room left of and below the picture.
  await quickLook.getByRole('button', { name: 'Save image…' }).click();
  const axesPanel = await visible(quickLook.getByRole('group', { name: 'Save image' }));
  await axesPanel.getByRole('combobox', { name: 'Size' }).selectOption('512');
  await axesPanel.getByRole('checkbox', { name: 'Axes in arcsec' }).check();
  const shot = await screenshot('quicklook-save-image-axes-1280x800-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot('quicklook-save-image-axes-1280x800-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  const [withAxes] = await Promise.all([page.waitForEvent('download'), axesPanel.getByRole('button', { name: 'Save PNG' }).click()]);
  await withAxes.saveAs(path.join(path.dirname(shot), 'quicklook-saved-figure-axes.png'));
  const figure = decode(await readFile((await withAxes.path())!));
  expect(figure.width).toBeGreaterThan(532);
  expect(figure.height).toBeGreaterThan(512 + 20 + 24 + 38);
  // Back to plain grey for what follows (the view is remembered for KCor).
  await plainView(quickLook);

  // Another stretch redraws from the decoded image in the worker.
  const drawnBefore = Number(await canvas.getAttribute('data-drawn'));
  await quickLook.getByRole('combobox', { name: 'Stretch' }).selectOption('log');
  await waitUntil('the log stretch is drawn', async () => Number(await canvas.getAttribute('data-drawn')) > drawnBefore);
  await quickLook.getByRole('searchbox', { name: 'Filter header cards' }).fill('naxis');
  await visible(quickLook.getByText('3 of '));
  await expectNoBlockingViolations(page, 'quick-look');
  await page.keyboard.press('Escape');
  await quickLook.waitFor({ state: 'hidden' });

  // The player: the downloaded files of the search on screen, in time order.
  await goTo(page, 'Browse');
  await page.getByRole('button', { name: 'Play downloaded files' }).click();
  const player = await visible(page.getByRole('dialog', { name: /^Player Downloaded files of kcor nrgf/ }));
  await drawnCanvas(player, /^Frame 1,/);
  await visible(player.getByText(`Frame 1 of ${names.length}`, { exact: true }));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await visible(player.getByText(`Frame 3 of ${names.length}`, { exact: true }));
  const frame = await drawnCanvas(player, /^Frame 3,/);
  await visible(player.getByText(names[2]!, { exact: true }));
  expectCorona(await lookOf(frame));
  await screenshot('player-1280x800-light');
  await player.getByRole('checkbox', { name: 'Running difference' }).check();
  await drawnCanvas(player, /^Frame 3,/);
  await visible(player.getByText(/^minus /));
  await page.keyboard.press('ArrowLeft');
  await drawnCanvas(player, /^Frame 2,/);
  await screenshot('player-1280x800-difference');
  await expectNoBlockingViolations(page, 'player');
  await page.keyboard.press('Escape');
  await player.waitFor({ state: 'hidden' });
}

const UCOMP_NAME = /^\d{8}\.\d{6}\.ucomp\.1074\.l2\.fts$/;

/**
 * A UCoMP level 2 file in the quick-look: 5:4 as real ones are (64 x 51 at the suite's image size), letterboxed in
 * its box without being stretched, the pointer read to the width and the height, and the limb drawn a circle (as
 * tall as wide on screen) around the header's Sun centre. Screenshots: quicklook-ucomp-overlays-*.png.
 */
export async function looksAtAUcompFileWithOverlays({ page, demoEmail, screenshot }: E2eContext): Promise<void> {
  await signIn(page, demoEmail);
  await chooseProduct(page, 'ucomp', 'l2');
  const wave = await visible(page.getByLabel('Wave region', { exact: true }));
  if ((await wave.evaluate((element) => element.tagName.toLowerCase())) === 'select') await wave.selectOption('1074');
  else await wave.fill('1074');
  await fillFilter(page, 'Observing plan', '');
  const names = await listDay(page, UCOMP_NAME, '2025-03-23', '2025-03-24', '2hours');
  await page.getByRole('button', { name: 'Download all' }).click();
  await goTo(page, 'Downloads');
  const table = page.getByRole('table', { name: 'Download queue' });
  const look = table.getByRole('button', { name: `Quick look at ${names[0]}` });
  // The queue draws only the rows in view and orders them by state (finished ones newest first): it is scrolled
  // through, page by page, until the file's row is drawn done and its button takes the click.
  await waitUntil(
    'the UCoMP file is downloaded and its quick look opened',
    async () => {
      const pages = await table.evaluate((element) => Math.ceil(element.scrollHeight / Math.max(1, element.clientHeight)));
      for (let at = 0; at <= pages; at += 1) {
        await table.evaluate((element, page) => (element.scrollTop = page * element.clientHeight), at);
        if (
          (await look.count()) === 1 &&
          (await look.click({ timeout: 2_000 }).then(
            () => true,
            () => false,
          ))
        )
          return true;
      }
      return false;
    },
    30_000,
  );
  const quickLook = await visible(page.getByRole('dialog', { name: new RegExp(`^Quick look ${names[0]!.replaceAll('.', '\\.')}`) }));
  const canvas = await drawnCanvas(quickLook, /^Image of/);
  const [width, height] = await canvas.evaluate((element) => [(element as unknown as PageCanvas).width, (element as unknown as PageCanvas).height]);
  expect([width, height]).toEqual([64, 51]);

  // The picture as drawn in the canvas's box (object-fit: contain): its corners are FITS (1, 51) and (64, 1).
  const drawnAt = async (): Promise<{ scale: number; left: number; top: number }> => {
    const box = (await canvas.boundingBox())!;
    const scale = Math.min(box.width / width!, box.height / height!);
    return { scale, left: box.x + (box.width - width! * scale) / 2, top: box.y + (box.height - height! * scale) / 2 };
  };
  let { scale, left, top } = await drawnAt();
  const readout = quickLook.getByTestId('pixel-readout');
  await page.mouse.move(left + scale / 2, top + scale / 2);
  await readoutShows(readout, /^Pixel 1, 51 · /, 'the top-left pixel');
  await page.mouse.move(left + (width! - 0.5) * scale, top + (height! - 0.5) * scale);
  await readoutShows(readout, /^Pixel 64, 1 · /, 'the bottom-right pixel');

  await chooseOverlays(quickLook, 'soholasco3', '1.5', { colourBar: false });
  const overlay = quickLook.getByTestId('image-overlay');
  await waitUntil('the limb and a circle are drawn', async () => (await overlay.locator('polygon').count()) === 2);
  // On screen the limb is as tall as it is wide, centred where the header puts the Sun (CRPIX1, CRPIX2).
  // The circles' unit stays beside its field when the controls wrap (the colour map's longer name widens its select).
  const field = (await quickLook.getByRole('textbox', { name: 'Circles at' }).boundingBox())!;
  const unit = (await quickLook.getByText('R☉', { exact: true }).boundingBox())!;
  expect(Math.abs(unit.y + unit.height / 2 - (field.y + field.height / 2))).toBeLessThan(4);
  const limb = (await overlay.locator('polygon.limb').boundingBox())!;
  ({ scale, left, top } = await drawnAt());
  expect(Math.abs(limb.width / limb.height - 1)).toBeLessThan(0.02);
  const header = async (keyword: string): Promise<number> =>
    Number(new RegExp(`${keyword}\\s*(-?[\\d.]+)`).exec((await quickLook.getByRole('row', { name: new RegExp(`^${keyword} `) }).textContent()) ?? '')![1]);
  const [cx, cy] = [await header('CRPIX1'), await header('CRPIX2')];
  expect(Math.abs(limb.x + limb.width / 2 - (left + (cx - 0.5) * scale))).toBeLessThan(scale);
  expect(Math.abs(limb.y + limb.height / 2 - (top + (height! - cy + 0.5) * scale))).toBeLessThan(scale);
  await page.mouse.move(left + (cx + 20) * scale, top + (height! - cy) * scale);
  await readoutShows(readout, /R☉/, 'a pixel west of the Sun');
  await atEachSizeAndScheme(page, (size, scheme) => screenshot(`quicklook-ucomp-overlays-${size}-${scheme}`));

  // Back to the plain view for UCoMP (remembered per instrument) for what follows.
  await plainView(quickLook);
  await page.keyboard.press('Escape');
  await quickLook.waitFor({ state: 'hidden' });
}

/** Waits for the pixel readout's parts, joined by " · ", to match `pattern`; a timeout says what it showed instead. */
async function readoutShows(readout: Locator, pattern: RegExp, what: string): Promise<void> {
  let shown = '';
  try {
    await waitUntil(`the readout shows ${what}`, async () => pattern.test((shown = (await readout.locator('span').allTextContents()).join(' · '))));
  } catch {
    throw new Error(`The readout should show ${what} (${pattern}) but shows "${shown}".`);
  }
}

/** From the keyboard: a colour map, the limb and north, circles at `circles` and, if asked, the colour bar. */
async function chooseOverlays(dialog: Locator, colormap: string, circles: string, { colourBar }: { colourBar: boolean }): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Colours' }).selectOption(colormap);
  await dialog.getByRole('checkbox', { name: 'Limb' }).press('Space');
  await dialog.getByRole('checkbox', { name: 'North' }).press('Space');
  if (colourBar) await dialog.getByRole('checkbox', { name: 'Colour bar' }).press('Space');
  await dialog.getByRole('textbox', { name: 'Circles at' }).fill(circles);
  await dialog.getByRole('textbox', { name: 'Circles at' }).press('Enter');
}

/** Plain grey with nothing over the image, and the overlay gone. */
async function plainView(dialog: Locator): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Colours' }).selectOption('grey');
  await dialog.getByRole('checkbox', { name: 'Limb' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'North' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'Colour bar' }).uncheck();
  await dialog.getByRole('textbox', { name: 'Circles at' }).fill('');
  await dialog.getByRole('textbox', { name: 'Circles at' }).press('Enter');
  await waitUntil('the overlay is gone', async () => (await dialog.getByTestId('image-overlay').count()) === 0);
}
