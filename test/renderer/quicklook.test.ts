// The quick-look, opened from a finished download in the Downloads list: the image drawn top row first with the
// chosen stretch and clip (the file read once), the HDU picker of a multi-extension file, the header narrowed by
// the filter box, the reader's one-line message for a file that is not FITS or is cut short, and Escape.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { FakeContract, makeJob } from './fake-contract';
import { renderApp } from './render-app';
import { drawnOn, greyAt, useCanvasAndDialog } from './canvas-and-dialog';
import { gradientFits, multiExtensionFits, NOT_FITS } from './fits-files';
import { concat, emptyPrimary, imageHdu } from '../science/fits/fits-writer';

useCanvasAndDialog();
// A colour map or overlay chosen in one test is remembered per instrument: the next starts from the default.
afterEach(() => localStorage.clear());

const NAME = '20250324_180015_kcor_l2_pb.fts';

async function openDownloads(files: Record<number, Uint8Array>) {
  const jobs = Object.keys(files).map((id) => makeJob(Number(id), `2025032${id}_180015_kcor_l2_pb.fts`, 'done'));
  const fake = new FakeContract({ jobs });
  for (const [id, bytes] of Object.entries(files)) fake.fileBytes.set(Number(id), bytes);
  const rendered = await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
  await screen.findByRole('table', { name: 'Download queue' });
  return { ...rendered, jobs };
}

async function quickLookAt(name: string): Promise<HTMLElement> {
  await fireEvent.click(await screen.findByRole('button', { name: `Quick look at ${name}` }));
  return screen.findByRole('dialog', { name: new RegExp(`^Quick look ${name}`) });
}

async function drawnImage(dialog: HTMLElement, times = 1) {
  const canvas = await within(dialog).findByRole('img', { name: /^Image of/ });
  await waitFor(() => expect(Number(canvas.dataset['drawn'])).toBeGreaterThanOrEqual(times));
  return drawnOn(canvas)!;
}

/** KCor-like keywords for a small image: the Sun's centre at FITS pixel (4, 3), 10 arcsec per pixel, radius 20 arcsec. */
const WCS_CARDS: [string, string | number][] = [
  ['INSTRUME', 'COSMO K-Coronagraph'],
  ['BUNIT', 'B/Bsun'],
  ['CTYPE1', 'HPLN-TAN'],
  ['CTYPE2', 'HPLT-TAN'],
  ['CUNIT1', 'arcsec'],
  ['CUNIT2', 'arcsec'],
  ['CRPIX1', 4],
  ['CRPIX2', 3],
  ['CDELT1', 10],
  ['CDELT2', 10],
  ['RSUN_OBS', 20],
];
const wcsImage = (offset = 0) => imageHdu({ bitpix: -32, axes: [8, 6], stored: Array.from({ length: 48 }, (_, i) => i + offset), extraCards: WCS_CARDS });

describe('the quick-look', () => {
  it('draws a finished download from the Downloads list, top row first, and redraws a new stretch without reading again', async () => {
    const { fake } = await openDownloads({ 4: gradientFits({ width: 8, height: 6 }) });
    const dialog = await quickLookAt('20250324_180015_kcor_l2_pb.fts');
    const first = await drawnImage(dialog);
    const reads = fake.callsTo('files:read').length;
    expect([first.width, first.height]).toEqual([8, 6]);
    // The top row on screen is the last row of the file: the brightest.
    expect(greyAt(first, 7, 0)).toBeGreaterThan(greyAt(first, 7, 5));
    within(dialog).getByText(/^8 × 6 pixels · clip/);

    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Stretch' }), { target: { value: 'linear' } });
    const low = within(dialog).getByRole('spinbutton', { name: 'Lower clip percentile' });
    const high = within(dialog).getByRole('spinbutton', { name: 'Upper clip percentile' });
    await fireEvent.input(low, { target: { value: '0' } });
    await fireEvent.change(low);
    await fireEvent.input(high, { target: { value: '100' } });
    await fireEvent.change(high);
    await waitFor(() => within(dialog).getByText('8 × 6 pixels · clip 0 to 47 (0–100 %)'));
    const linear = await drawnImage(dialog, 3);
    // Values 0..47 over the whole range: exact grey levels, row 5 of the file on top.
    expect(greyAt(linear, 0, 0)).toBe(Math.round((40 / 47) * 255));
    expect(greyAt(linear, 7, 0)).toBe(255);
    expect(greyAt(linear, 0, 5)).toBe(0);
    // Read once for the quick-look (and once for the row's thumbnail); a new stretch or clip reads nothing.
    expect(fake.callsTo('files:read').length).toBe(reads);
    expect(reads).toBeLessThanOrEqual(2);
  });

  it('reads the pixel under the pointer: FITS numbering, value with BUNIT, arcsec, solar radii and position angle', async () => {
    // 8 x 6 pixels, value = column + 8 x row (from 0); the Sun's centre at FITS pixel (4, 3), 10 arcsec per pixel.
    await openDownloads({ 4: wcsImage() });
    const dialog = await quickLookAt(NAME);
    const canvas = await within(dialog).findByRole('img', { name: /^Image of/ });
    await drawnImage(dialog);
    const readout = within(dialog).getByTestId('pixel-readout');
    expect(readout.textContent).toMatch(/Point at the image/);
    // Drawn 800 x 600 (100 px per pixel): the pointer at (50, 50) is over the top-left pixel, FITS (1, 6).
    canvas.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 800, height: 600 });
    await fireEvent.pointerMove(canvas, { clientX: 50, clientY: 50 });
    await waitFor(() =>
      expect([...readout.querySelectorAll('span')].map((part) => part.textContent)).toEqual([
        'Pixel 1, 6',
        '40 B/Bsun',
        'x -30.0″ y 30.0″',
        '2.121 R☉',
        'PA 45.0°',
      ]),
    );
    // West of the centre, on its row: position angle 270, two solar radii out.
    await fireEvent.pointerMove(canvas, { clientX: 750, clientY: 350 });
    await waitFor(() => expect(readout.textContent).toContain('Pixel 8, 3'));
    expect(readout.textContent).toContain('PA 270.0°');
    expect(readout.textContent).toContain('2.000 R☉');
    await fireEvent.pointerLeave(canvas);
    await waitFor(() => expect(readout.textContent).toMatch(/Point at the image/));
  });

  it('draws in a colour map, the limb, circles, north and a colour bar, remembered for the instrument', async () => {
    await openDownloads({ 4: wcsImage(), 5: wcsImage(100) });
    let dialog = await quickLookAt(NAME);
    const grey = await drawnImage(dialog);
    const [r, g, b] = grey.data.slice(0, 3);
    expect([r, g]).toEqual([b, b]);
    await fireEvent.change(within(dialog).getByRole('combobox', { name: 'Colours' }), { target: { value: 'viridis' } });
    await waitFor(() => {
      const coloured = drawnOn(within(dialog).getByRole('img', { name: /^Image of/ }))!;
      // Viridis: the faintest level is dark purple (#440154), the brightest yellow (#fde725).
      expect(coloured.data.slice(0, 3)).not.toEqual(grey.data.slice(0, 3));
      expect(new Set([coloured.data[0], coloured.data[1], coloured.data[2]]).size).toBeGreaterThan(1);
    });
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Limb' }));
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'North' }));
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Colour bar' }));
    const circles = within(dialog).getByRole('textbox', { name: 'Circles at' });
    await fireEvent.input(circles, { target: { value: 'two' } });
    await fireEvent.change(circles);
    expect(within(dialog).getByText(/Give distances in solar radii/)).toBeTruthy();
    await fireEvent.input(circles, { target: { value: '3, 1.5' } });
    await fireEvent.change(circles);
    const overlay = await within(dialog).findByTestId('image-overlay');
    await waitFor(() => expect([...overlay.querySelectorAll('polygon')].map((line) => line.dataset['solarRadii'])).toEqual(['1', '1.5', '3']));
    // The limb, 20 arcsec = 2 pixels around FITS (4, 3): in the SVG's pixels, around (3.5, 6 - 3 + 0.5).
    const limb = overlay
      .querySelector('polygon')!
      .getAttribute('points')!
      .split(' ')
      .map((point) => point.split(',').map(Number));
    for (const [x, y] of limb) expect(Math.abs(Math.hypot(x! - 3.5, y! - 3.5) - 2)).toBeLessThan(0.01);
    expect(overlay.querySelector('line.north')).not.toBeNull();
    // Each line over a black outline (a path under it), the circles labelled with their radii where the label fits
    // within the image (3 R☉ lies wholly outside this 8 x 6 one), north with its N.
    expect(overlay.querySelectorAll('path.outline')).toHaveLength(4);
    expect([...overlay.querySelectorAll('text')].map((text) => text.textContent)).toEqual(['1.5 R☉', 'N']);
    expect(within(dialog).getByRole('figure', { name: /^Colour bar: [\d.]+ to [\d.]+ B\/Bsun, asinh stretch$/ })).toBeTruthy();

    // Another file of the same instrument opens with the same view.
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await quickLookAt('20250325_180015_kcor_l2_pb.fts');
    await drawnImage(dialog);
    expect(within(dialog).getByRole('combobox', { name: 'Colours' })).toHaveProperty('value', 'viridis');
    expect(within(dialog).getByRole('checkbox', { name: 'Limb' })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('textbox', { name: 'Circles at' })).toHaveProperty('value', '1.5, 3');
    await within(dialog).findByTestId('image-overlay');
  });

  it('says why there is no overlay on an image without world coordinates', async () => {
    await openDownloads({ 4: gradientFits({ width: 8, height: 6 }) });
    const dialog = await quickLookAt(NAME);
    await drawnImage(dialog);
    await fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Limb' }));
    await within(dialog).findByText('No overlay: its header names no coordinate axes (CTYPE1, CTYPE2).');
    expect(within(dialog).queryByTestId('image-overlay')).toBeNull();
  });

  it('draws a file cut inside its last padding, as astropy reads it, saying so under the image; a whole file has no such line', async () => {
    // Written by astropy, then cut 800 bytes short of its last block (scripts/fixtures/make_cut_padding.py).
    const fixture = (name: string) => new Uint8Array(readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'cut-padding', name)));
    await openDownloads({ 4: fixture('image-cut800.fits'), 5: fixture('image.fits') });
    let dialog = await quickLookAt(NAME);
    expect([(await drawnImage(dialog)).width]).toEqual([100]);
    within(dialog).getByText(
      `${NAME} ends 2,080 bytes into its last 2,880-byte block, 800 bytes short of it (FITS pads every HDU to whole blocks); read as astropy reads it.`,
    );
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    dialog = await quickLookAt('20250325_180015_kcor_l2_pb.fts');
    await drawnImage(dialog);
    expect(within(dialog).queryByText(/read as astropy reads it/)).toBeNull();
  });

  it('refuses a clip that makes no sense, under the fields, and keeps the image', async () => {
    await openDownloads({ 4: gradientFits() });
    const dialog = await quickLookAt('20250324_180015_kcor_l2_pb.fts');
    await drawnImage(dialog);
    const low = within(dialog).getByRole('spinbutton', { name: 'Lower clip percentile' });
    await fireEvent.input(low, { target: { value: '99.9' } });
    await fireEvent.change(low);
    within(dialog).getByText('The lower percentile must be below the upper one, such as 1 and 99.5.');
    expect(low.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText(/^8 × 6 pixels · clip .* \(1–99\.5 %\)$/)).toBeTruthy();
  });

  it('shows the header as a list that the filter box narrows', async () => {
    await openDownloads({ 4: gradientFits({ dateObs: '2025-03-24T18:00:15' }) });
    const dialog = await quickLookAt('20250324_180015_kcor_l2_pb.fts');
    const header = within(dialog).getByRole('region', { name: 'Header' });
    // The header shows once the file is open in the worker, a few steps after the dialog.
    const table = await within(header).findByRole('table');
    within(table).getByRole('row', { name: 'DATE-OBS 2025-03-24T18:00:15 [UT] date/time of the observation' });
    within(table).getByRole('row', { name: 'COMMENT A gradient written for the quick-look tests' });
    within(header).getByText('9 cards');
    await fireEvent.input(within(header).getByRole('searchbox', { name: 'Filter header cards' }), { target: { value: 'naxis' } });
    const keywords = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    expect(keywords).toEqual(['NAXIS', 'NAXIS1', 'NAXIS2']);
    within(header).getByText('3 of 9 cards');
    // Values and comments are searched too.
    await fireEvent.input(within(header).getByRole('searchbox', { name: 'Filter header cards' }), { target: { value: 'b/bsun' } });
    within(table).getByRole('row', { name: 'BUNIT B/Bsun units of the data' });
  });

  it('offers every HDU of a multi-extension file, starting at the first image; one without an image shows its header only', async () => {
    await openDownloads({ 4: multiExtensionFits() });
    const dialog = await quickLookAt('20250324_180015_kcor_l2_pb.fts');
    const picker = (await within(dialog).findByRole('combobox', { name: 'Extension' })) as HTMLSelectElement;
    expect([...picker.options].map((option) => option.textContent)).toEqual([
      'HDU 0 (primary): no image',
      'HDU 1 (IMAGE, I): 4 × 3, float32',
      'HDU 2 (IMAGE, Q): 5 × 2 × 2, int16',
      'HDU 3 (BINTABLE, WAVES): no image',
    ]);
    expect(picker.value).toBe('1');
    expect((await drawnImage(dialog)).width).toBe(4);

    await fireEvent.change(picker, { target: { value: '2' } });
    await waitFor(() => within(dialog).getByText(/^5 × 2 pixels · clip .* · first of 2 planes$/));
    expect((await drawnImage(dialog, 2)).width).toBe(5);
    within(dialog).getByRole('row', { name: /^EXTNAME Q/ });

    await fireEvent.change(picker, { target: { value: '3' } });
    await within(dialog).findByText('HDU 3 (BINTABLE, WAVES) holds no image; its header is beside.');
    within(dialog).getByRole('row', { name: /^TFORM1 1D/ });
  });

  it('shows the reader’s one-line message for a file that is not FITS or is cut short', async () => {
    const truncated = gradientFits({ width: 64, height: 64 }).subarray(0, 2880 + 4096);
    const { jobs } = await openDownloads({ 4: NOT_FITS, 5: truncated });
    let dialog = await quickLookAt(jobs[0]!.localName);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(`${jobs[0]!.localName} is not a FITS file: it does not start with "SIMPLE  =".`);
    expect(within(dialog).queryByRole('img')).toBeNull();
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close quick look' }));

    dialog = await quickLookAt(jobs[1]!.localName);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(`${jobs[1]!.localName} ends after 4,096 of 16,384 bytes of HDU 0's data.`);
  });

  it('shows the same message for a file cut where an HDU ends, with fewer HDUs than its NEXTEND declares', async () => {
    const extension = imageHdu({ bitpix: -32, axes: [4, 3], stored: new Array(12).fill(1), extension: true });
    const cut = concat(emptyPrimary([['NEXTEND', 4]]), extension, extension).subarray(0, 2880 * 3);
    const { jobs } = await openDownloads({ 6: cut });
    const dialog = await quickLookAt(jobs[0]!.localName);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      `${jobs[0]!.localName} ends after HDU 1: its primary header declares 4 extensions (NEXTEND = 4).`,
    );
    expect(within(dialog).queryByRole('img')).toBeNull();
  });

  it('says why a file cannot be read, in the app’s words', async () => {
    const { fake } = await openDownloads({ 4: gradientFits() });
    fake.fail('files:read', { kind: 'invalid-input', message: `${NAME} is no longer in /home/ada/mlso: download it (or sync its campaign) again.` });
    const dialog = await quickLookAt(NAME);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(`${NAME} is no longer in /home/ada/mlso: download it (or sync its campaign) again.`);
  });

  it('stays open when opened again before the last closing has finished', async () => {
    await openDownloads({ 4: gradientFits(), 5: gradientFits({ scale: 2 }) });
    const dialog = await quickLookAt(NAME);
    await drawnImage(dialog);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close quick look' }));
    // The next file at once: the first dialog's close event is still to come.
    await fireEvent.click(screen.getByRole('button', { name: 'Quick look at 20250325_180015_kcor_l2_pb.fts' }));
    const again = await screen.findByRole('dialog', { name: /^Quick look 20250325_180015_kcor_l2_pb\.fts/ });
    await drawnImage(again);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('dialog', { name: /^Quick look 20250325_180015_kcor_l2_pb\.fts/ })).toBeTruthy();
  });

  it('closes on Escape and gives the focus back to the button that opened it', async () => {
    await openDownloads({ 4: gradientFits() });
    const button = await screen.findByRole('button', { name: `Quick look at ${NAME}` });
    button.focus();
    await fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: new RegExp(`^Quick look ${NAME}`) });
    await drawnImage(dialog);
    await fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Close quick look' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(button);
  });
});
