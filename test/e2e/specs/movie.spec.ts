// A movie from the player: 60 KCor frames downloaded from a search, played, and exported (WebCodecs in Chromium,
// written by mediabunny: MP4 with H.264 or WebM with VP9, whichever the browser encodes); the saved file is read
// back with mediabunny's own reader (its frame count and duration) and with ffprobe, as a player outside the browser
// would read it (when ffmpeg is installed, as CI installs it). Screenshot: movie-export-*.png.
import { readFile } from 'node:fs/promises';
import { ALL_FORMATS, BufferSource, Input } from 'mediabunny';
import { expect } from 'vitest';
import type { E2eContext } from '../e2e-context';
import { chooseProduct, fillFilter, goTo, signIn, visible, waitUntil } from './ui-helpers';
import { ffmpegPresent, ffmpegRequired, probeVideo } from '../../helpers/ffprobe';

const PB_NAME = /^\d{8}_\d{6}_kcor_l2_pb\.fts$/;
const FRAMES = 60;
const FPS = 12;

export async function exportsAMovieFromThePlayer({ page, demoEmail, screenshot }: E2eContext): Promise<void> {
  await signIn(page, demoEmail);
  await chooseProduct(page, 'kcor', 'pb');
  // A day of pB every 2 minutes: about 100 files (KCor observes 17:50 to 21:05 UT).
  for (const [label, value] of [
    ['Start date', '2025-03-22'],
    ['End date', '2025-03-23'],
    ['Carrington rotation', ''],
    ['Every', '2minutes'],
  ] as const)
    await fillFilter(page, label, value);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // The grid draws only the rows in view: the summary line counts them all.
  const first = page.getByRole('grid', { name: 'Files found' }).getByText(PB_NAME).first();
  const summary = page.locator('p.summary strong');
  await waitUntil('the results show at least 60 pB files of the day', async () => {
    const count = Number(((await summary.textContent()) ?? '').replace(/[^\d]/g, ''));
    return (await first.isVisible()) && count >= FRAMES;
  });
  await page.getByRole('button', { name: 'Download all' }).click();
  await goTo(page, 'Browse');
  const play = page.getByRole('button', { name: 'Play downloaded files' });
  const player = page.getByRole('dialog', { name: /^Player Downloaded files of kcor pb/ });
  await waitUntil(
    'at least 60 of the files are downloaded and playable',
    async () => {
      if (await player.isVisible()) await page.keyboard.press('Escape');
      await play.click();
      await visible(player);
      const line = await player.getByText(/^Frame 1 of \d+$/).textContent({ timeout: 10_000 });
      return Number(line?.split(' of ')[1]) >= FRAMES;
    },
    60_000,
  );

  await player.getByRole('button', { name: 'Export movie…' }).click();
  const panel = await visible(player.getByRole('group', { name: 'Export movie' }));
  await panel.getByRole('spinbutton', { name: 'To frame' }).fill(String(FRAMES));
  await panel.getByRole('spinbutton', { name: 'Frames per second' }).fill(String(FPS));
  await panel.getByRole('combobox', { name: 'Size' }).selectOption('256');
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  await panel.getByRole('button', { name: 'Export', exact: true }).click();
  await visible(panel.getByRole('progressbar', { name: 'Movie frames encoded' }));
  await screenshot('movie-export-1280x800-light');
  const download = await downloading;
  const saved = await panel
    .getByRole('status')
    .filter({ hasText: /^Saved / })
    .textContent();
  expect(saved).toMatch(new RegExp(`^Saved .+\\.(mp4|webm): ${FRAMES} frames, 256 × 256, (H\\.264|VP9)\\.$`));
  expect(download.suggestedFilename()).toMatch(/\.(mp4|webm)$/);

  // Read back with mediabunny's reader: the frames and the duration they make at 12 per second.
  const file = (await download.path())!;
  const input = new Input({ source: new BufferSource(await readFile(file)), formats: ALL_FORMATS });
  const track = (await input.getPrimaryVideoTrack())!;
  expect([track.displayWidth, track.displayHeight]).toEqual([256, 256]);
  expect((await track.computePacketStats()).packetCount).toBe(FRAMES);
  expect(await track.computeDuration()).toBeCloseTo(FRAMES / FPS, 2);
  // And with ffprobe: every frame decodes, in the codec the panel named, for the same duration.
  if (ffmpegPresent() || ffmpegRequired()) {
    expect(ffmpegPresent(), 'ffprobe is not on PATH: .ci/run installs ffmpeg').toBe(true);
    const probed = probeVideo(file);
    expect(probed).toMatchObject({ codec: saved!.includes('H.264') ? 'h264' : 'vp9', width: 256, height: 256, frames: FRAMES });
    expect(probed.seconds).toBeCloseTo(FRAMES / FPS, 1);
  }
  await page.keyboard.press('Escape');
  await player.waitFor({ state: 'hidden' });
}
