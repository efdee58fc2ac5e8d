// The sequence player: opened from a campaign (its files on disk) or from Browse (the listed files that are
// downloaded), frames in time order with their date-obs, arrow keys, playing at a rate, one clip for all frames,
// a running difference, prefetching a few frames ahead, and memory that stays bounded over a long sequence.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import type { CampaignFileView } from '../../src-shared/contract/contract';
import { apiClientFrom } from '../../src-renderer/lib/api';
import { FitsClient, inThreadPort } from '../../src-renderer/quicklook/fits-worker-client';
import { FitsEngine, KEPT_FRAMES } from '../../src-renderer/quicklook/workers/fits-engine';
import { KEPT_RENDERED_FRAMES, PREFETCH_FRAMES, SequencePlayerStore } from '../../src-renderer/quicklook/quicklook-player.svelte';
import { DEMO_EMAIL, FakeContract, makeJob } from './fake-contract';
import { renderApp } from './render-app';
import { drawnOn, greyAt, useCanvasAndDialog } from './canvas-and-dialog';
import { gradientFits } from './fits-files';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { readFits } from '../../src-science/fits/fits-file';
import { UCOMP_L2 } from '../helpers/emulator-subjects';

useCanvasAndDialog();
// A colour map or overlay chosen in one test is remembered per instrument: the next starts from the default.
afterEach(() => localStorage.clear());

const SIGNED_IN = { signedIn: true, email: DEMO_EMAIL, expiresAt: Date.now() + 86_400_000 };
const LINEAR_FULL = { stretch: 'linear', clipPercents: [0, 100] } as const;

/** Frame k (1-based) of a sequence: the gradient scaled by k, observed k minutes after 18:00 UT. */
function frameFile(k: number): { name: string; dateObs: string; bytes: Uint8Array } {
  const minute = String(k).padStart(2, '0');
  return {
    name: `20250324_18${minute}00_kcor_l2_pb.fts`,
    dateObs: `2025-03-24T18:${minute}:00`,
    bytes: gradientFits({ scale: k, dateObs: `2025-03-24T18:${minute}:00` }),
  };
}

/** Frame k of UCoMP level 2 files as the emulator makes them: 40 x 32 (5:4, as real ones), with their WCS. */
function ucompFrame(k: number): { name: string; dateObs: string; bytes: Uint8Array } {
  const dateObs = `2025-03-24T18:${String(k).padStart(2, '0')}:00`;
  const name = `20250324.18${String(k).padStart(2, '0')}00.ucomp.789.l2.fts`;
  return { name, dateObs, bytes: fitsBytes({ ...UCOMP_L2, filename: name, dateObs }, { imageSize: 40, ucompImageSize: 0 }) };
}

/** A campaign with `count` files on disk, listed out of time order, each read through its job. */
async function openCampaignPlayer(count: number, fileOf = frameFile) {
  const fake = new FakeContract({ session: SIGNED_IN });
  fake.campaigns.seed({ name: 'CME watch', files: { onDisk: count, missing: 1 } });
  const files: CampaignFileView[] = [];
  for (let k = count; k >= 1; k -= 1) {
    const file = fileOf(k);
    fake.fileBytes.set(100 + k, file.bytes);
    fake.jobs.push(makeJob(100 + k, file.name, 'done'));
    files.push({
      relativePath: file.name,
      filename: file.name,
      instrument: 'kcor',
      product: 'pb',
      dateObs: file.dateObs,
      state: 'done',
      standing: 'onDisk',
      jobId: 100 + k,
    });
  }
  files.push({
    relativePath: 'missing.fts',
    filename: 'missing.fts',
    instrument: 'kcor',
    product: 'pb',
    dateObs: '2025-03-24T17:00:00',
    state: null,
    standing: 'missing',
    jobId: null,
  });
  fake.handle('campaigns:files', () => files);
  await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
  await fireEvent.click(within(await screen.findByRole('listitem', { name: 'CME watch' })).getByRole('button', { name: 'Play' }));
  const dialog = await screen.findByRole('dialog', { name: 'Player Campaign CME watch' });
  return { fake, dialog };
}

async function frameShown(dialog: HTMLElement, number: number, dateObs: string): Promise<void> {
  await within(dialog).findByRole('img', { name: `Frame ${number}, ${dateObs.replace('T', ' ')} UT` });
}

function frameImage(dialog: HTMLElement) {
  return drawnOn(within(dialog).getByRole('img', { name: /^Frame \d+/ }))!;
}

describe('the sequence player', () => {
  it('plays a campaign’s files on disk in time order, stepping with the arrow keys', async () => {
    const { dialog } = await openCampaignPlayer(5);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    within(dialog).getByText('2025-03-24 18:01:00 UT');
    within(dialog).getByText('Frame 1 of 5');

    const focus = within(dialog).getByRole('button', { name: 'Close player' });
    await fireEvent.keyDown(focus, { key: 'ArrowRight' });
    await frameShown(dialog, 2, frameFile(2).dateObs);
    within(dialog).getByText('Frame 2 of 5');
    await fireEvent.keyDown(focus, { key: 'End' });
    await frameShown(dialog, 5, frameFile(5).dateObs);
    await fireEvent.keyDown(focus, { key: 'ArrowLeft' });
    await frameShown(dialog, 4, frameFile(4).dateObs);
    await fireEvent.keyDown(focus, { key: 'Home' });
    await frameShown(dialog, 1, frameFile(1).dateObs);
  });

  it("reads the pixel under the pointer in the frame on screen, and that frame's value when the frame changes", async () => {
    const { dialog } = await openCampaignPlayer(3);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    const canvas = within(dialog).getByRole('img', { name: /^Frame 1/ });
    const readout = within(dialog).getByTestId('pixel-readout');
    // The 8 x 6 gradient drawn 800 x 600: the pointer at (250, 550) is over FITS pixel (3, 1), value k x 2.
    canvas.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 800, height: 600 });
    await fireEvent.pointerMove(canvas, { clientX: 250, clientY: 550 });
    await waitFor(() => expect(readout.textContent).toBe('Pixel 3, 1' + '2 B/Bsun'));
    await fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Close player' }), { key: 'ArrowRight' });
    await frameShown(dialog, 2, frameFile(2).dateObs);
    await waitFor(() => expect(readout.textContent).toBe('Pixel 3, 1' + '4 B/Bsun'));
    await fireEvent.pointerLeave(canvas);
    await waitFor(() => expect(readout.textContent).toMatch(/Point at the image/));
  });

  it('shows a 5:4 UCoMP frame as it is: 40 x 32, read to its width and height, the limb a circle around CRPIX', async () => {
    const { dialog } = await openCampaignPlayer(2, ucompFrame);
    await frameShown(dialog, 1, ucompFrame(1).dateObs);
    const image = frameImage(dialog);
    expect([image.width, image.height]).toEqual([40, 32]);
    // Drawn 400 x 320: the pointer near the top-right corner is over FITS pixel (40, 32).
    const canvas = within(dialog).getByRole('img', { name: /^Frame 1/ });
    canvas.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 400, height: 320 });
    await fireEvent.pointerMove(canvas, { clientX: 395, clientY: 5 });
    const readout = within(dialog).getByTestId('pixel-readout');
    await waitFor(() => expect(readout.textContent).toMatch(/^Pixel 40, 32\d/));
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Limb' }));
    const overlay = await within(dialog).findByTestId('image-overlay');
    expect(overlay.getAttribute('viewBox')).toBe('0 0 40 32');
    const header = readFits(ucompFrame(1).bytes, 'frame').hdus[1]!.values;
    const [cx, cy, cdelt] = ['CRPIX1', 'CRPIX2', 'CDELT1'].map((key) => header.get(key) as number);
    const radius = 962 / cdelt!;
    await waitFor(() => expect(overlay.querySelector('polygon.limb')).not.toBeNull());
    const limb = overlay
      .querySelector('polygon.limb')!
      .getAttribute('points')!
      .split(' ')
      .map((point) => point.split(',').map(Number));
    // In the SVG's pixels (rows from the top): around (CRPIX1 - 0.5, 32 - CRPIX2 + 0.5), the Sun's radius every way.
    for (const [x, y] of limb) expect(Math.abs(Math.hypot(x! - (cx! - 0.5), y! - (32 - cy! + 0.5)) / radius - 1)).toBeLessThan(0.01);
  });

  it('draws in the colour map remembered for the instrument, and says why frames without coordinates get no overlay', async () => {
    let { dialog } = await openCampaignPlayer(3);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Colours' }), { target: { value: 'inferno' } });
    await waitFor(() => {
      const [r, g, b] = frameImage(dialog).data.slice(4 * 7, 4 * 7 + 3);
      expect(new Set([r, g, b]).size).toBeGreaterThan(1);
    });
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Limb' }));
    await within(dialog).findByText('No overlay: its header names no coordinate axes (CTYPE1, CTYPE2).');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close player' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    cleanup();
    ({ dialog } = await openCampaignPlayer(3));
    await frameShown(dialog, 1, frameFile(1).dateObs);
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Colours' })).toHaveProperty('value', 'inferno'));
    expect(within(dialog).getByRole('checkbox', { name: 'Limb' })).toHaveProperty('checked', true);
  });

  it('draws every frame with the clip of the first, until told to take it from another frame', async () => {
    const { dialog } = await openCampaignPlayer(3);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Stretch' }), { target: { value: 'linear' } });
    const low = within(dialog).getByRole('spinbutton', { name: 'Lower clip percentile' });
    await fireEvent.input(low, { target: { value: '0' } });
    await fireEvent.change(low);
    const high = within(dialog).getByRole('spinbutton', { name: 'Upper clip percentile' });
    await fireEvent.input(high, { target: { value: '100' } });
    await fireEvent.change(high);
    await within(dialog).findByText('All frames: 0 to 47 (0–100 % of frame 1)');

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Next frame' }));
    await frameShown(dialog, 2, frameFile(2).dateObs);
    // Frame 2 is twice as bright; with frame 1's clip its upper half saturates (the top row on screen is all white).
    const second = frameImage(dialog);
    expect([0, 3, 7].map((x) => greyAt(second, x, 0))).toEqual([255, 255, 255]);
    expect(greyAt(second, 0, 5)).toBe(0);

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Clip from this frame' }));
    await within(dialog).findByText('All frames: 0 to 94 (0–100 % of frame 2)');
    await waitFor(() => expect(greyAt(frameImage(dialog), 0, 0)).toBe(Math.round((80 / 94) * 255)));
  });

  it('shows a running difference: each frame minus the one before it', async () => {
    const { dialog } = await openCampaignPlayer(3);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Stretch' }), { target: { value: 'linear' } });
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Running difference' }));
    // The first frame has nothing to subtract: the player starts at the second.
    await frameShown(dialog, 2, frameFile(2).dateObs);
    within(dialog).getByText('minus 2025-03-24 18:01:00 UT');
    // Frame 2 minus frame 1 is the gradient itself; about zero, so the bottom-left (no change) is mid-grey.
    const image = frameImage(dialog);
    expect(greyAt(image, 0, 5)).toBe(128);
    expect(greyAt(image, 7, 0)).toBeGreaterThan(200);
    expect(within(dialog).getByRole('button', { name: 'Previous frame' })).toHaveProperty('disabled', true);
  });

  it('plays at the chosen rate, looping, and pauses', async () => {
    const { dialog } = await openCampaignPlayer(3);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    const rate = within(dialog).getByRole('spinbutton', { name: 'Frames per second' });
    await fireEvent.change(rate, { target: { value: '30' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Play' }));
    await frameShown(dialog, 3, frameFile(3).dateObs);
    // After the last frame it starts over.
    await frameShown(dialog, 1, frameFile(1).dateObs);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    const stoppedAt = within(dialog).getByText(/^Frame \d of 3$/).textContent;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(within(dialog).getByText(/^Frame \d of 3$/).textContent).toBe(stoppedAt);
  });

  it(`reads ${PREFETCH_FRAMES} frames ahead of the one shown, not the whole sequence`, async () => {
    const { fake, dialog } = await openCampaignPlayer(12);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    const frameReads = () =>
      fake
        .callsTo('files:read')
        .map(({ id }) => id - 100)
        .filter((k) => k >= 1);
    await waitFor(() => expect(frameReads()).toEqual([1, 2, 3, 4]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frameReads()).toEqual([1, 2, 3, 4]);
    await fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await waitFor(() => expect(frameReads()).toEqual([1, 2, 3, 4, 5]));
  });

  it('opens the frame on screen in the quick-look, over the player, and comes back to it', async () => {
    const { dialog } = await openCampaignPlayer(3);
    await frameShown(dialog, 1, frameFile(1).dateObs);
    await fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await frameShown(dialog, 2, frameFile(2).dateObs);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Quick look' }));
    const quickLook = await screen.findByRole('dialog', { name: `Quick look ${frameFile(2).name}` });
    await within(quickLook).findByRole('img', { name: /^Image of/ });
    within(quickLook).getByRole('row', { name: /^DATE-OBS 2025-03-24T18:02:00/ });
    await fireEvent.click(within(quickLook).getByRole('button', { name: 'Close quick look' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Quick look/ })).toBeNull());
    within(screen.getByRole('dialog', { name: 'Player Campaign CME watch' })).getByText('Frame 2 of 3');
  });

  it('says so when a campaign has nothing on disk, and offers no Play when nothing is', async () => {
    const fake = new FakeContract();
    fake.campaigns.seed({ name: 'Empty', files: { missing: 4 } });
    fake.campaigns.seed({ name: 'Stale', files: { onDisk: 2 } });
    fake.handle('campaigns:files', () => []);
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
    expect(within(await screen.findByRole('listitem', { name: 'Empty' })).getByRole('button', { name: 'Play' })).toHaveProperty('disabled', true);
    await fireEvent.click(within(screen.getByRole('listitem', { name: 'Stale' })).getByRole('button', { name: 'Play' }));
    const dialog = await screen.findByRole('dialog', { name: 'Player Campaign Stale' });
    await within(dialog).findByText('No file of this campaign is on disk yet: press Sync, then Play once files have arrived.');
  });

  it('plays the downloaded files of the search on screen from Browse, in time order', async () => {
    const fake = new FakeContract({ session: SIGNED_IN, listingSize: 10 });
    const listing = fake.listingFor({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } }).files;
    // Three of the listed files are downloaded (queued in another order), one is still queued, one is another search's.
    for (const [id, index] of [
      [7, 6],
      [8, 2],
      [9, 4],
    ] as const) {
      fake.jobs.push(makeJob(id, listing[index]!.filename, 'done'));
      fake.fileBytes.set(id, gradientFits({ offset: index }));
    }
    fake.jobs.push(makeJob(10, listing[5]!.filename, 'queued'), makeJob(11, '20240101_000000_kcor_l2_pb.fts', 'done'));
    await renderApp(fake);
    await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'kcor' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).not.toBe(''));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Product' }), { target: { value: 'pb' } });
    await waitFor(() => expect(screen.queryByText(/Loading the product/)).toBeNull());
    const start = screen.getByRole('textbox', { name: 'Start date' });
    await fireEvent.input(start, { target: { value: '2025-03-24' } });
    await fireEvent.blur(start);
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText(listing[0]!.filename);
    await fireEvent.click(screen.getByRole('button', { name: 'Play downloaded files' }));
    const dialog = await screen.findByRole('dialog', { name: /^Player Downloaded files of kcor pb/ });
    await frameShown(dialog, 1, listing[2]!['date-obs']);
    within(dialog).getByText('Frame 1 of 3');
    within(dialog).getByText(listing[2]!.filename);
    await fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await frameShown(dialog, 2, listing[4]!['date-obs']);
    await fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await frameShown(dialog, 3, listing[6]!['date-obs']);
  });
});

describe('the player’s memory', () => {
  it(`keeps at most ${KEPT_RENDERED_FRAMES} rendered and ${KEPT_FRAMES} decoded frames over a long sequence`, async () => {
    const fake = new FakeContract();
    const frames = Array.from({ length: 40 }, (_, i) => {
      const name = `frame-${String(i + 1).padStart(2, '0')}.fts`;
      fake.jobs.push(makeJob(i + 1, name, 'done'));
      fake.fileBytes.set(i + 1, gradientFits({ offset: i, dateObs: `2025-03-24T19:${String(i).padStart(2, '0')}:00` }));
      return { jobId: i + 1, name, dateObs: null };
    });
    const engine = new FitsEngine();
    const player = new SequencePlayerStore(apiClientFrom(fake), new FitsClient(inThreadPort(engine)));
    player.openFrames('long', frames);
    player.setDisplay(LINEAR_FULL);
    let largestRendered = 0;
    let largestDecoded = 0;
    for (let index = 0; index < frames.length; index += 1) {
      player.goTo(index);
      await waitFor(() => expect(player.shownIndex).toBe(index));
      largestRendered = Math.max(largestRendered, player.renderedFrameCount);
      largestDecoded = Math.max(largestDecoded, engine.keptFrameCount);
    }
    expect(largestRendered).toBeLessThanOrEqual(KEPT_RENDERED_FRAMES);
    expect(largestDecoded).toBeLessThanOrEqual(KEPT_FRAMES);
    // The list had no dates: each frame's came from its file's header once read.
    expect(player.frames.map((frame) => frame.dateObs)).toEqual(frames.map((_, i) => `2025-03-24T19:${String(i).padStart(2, '0')}:00`));
    player.close();
    await waitFor(() => expect(engine.keptFrameCount).toBe(0));
  });
});
