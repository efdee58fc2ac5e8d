// quicklook, header and cr as users run them: the built mlso-dl (node scripts/build-main.mjs first) in a child
// process, its output through a real pipe to a shell tool.
import { lstat, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';
import { concat, emptyPrimary, imageHdu } from '../science/fits/fits-writer';
import { EMULATOR_FILE, emulatorFitsBytes, fitsFileOf, pngOf, readPng } from './fits-test-input';

afterEach(async () => {
  await stopBuiltCli();
});

describe('the built mlso-dl on a FITS file', () => {
  it('header --json | cat: the whole JSON through the pipe, both statuses 0', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(32), EMULATOR_FILE);
    const run = await runPiped(['header', input, '--json'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    const hdus = JSON.parse(run.output.toString()) as { hdu: number; cards: { keyword: string; value: unknown }[] }[];
    expect(hdus[0]!.cards).toContainEqual(expect.objectContaining({ keyword: 'FILENAME', value: EMULATOR_FILE }));
  });

  it('quicklook --out - | cat: a PNG on standard output', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(64), EMULATOR_FILE);
    const run = await runPiped(['quicklook', input, '--out', '-', '--size', '32'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    expect(run.stderr).toBe('');
    const png = pngOf(run.output);
    expect([png.width, png.height, png.channels]).toEqual([32, 32, 1]);
    expect(png.at(16, 16)).toBe(0);
  });

  it('quicklook --out FILE writes the PNG and says so on stderr', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(64), EMULATOR_FILE);
    const out = path.join(await temporaryFolder(), 'look.png');
    const run = await runBuiltCli(['quicklook', input, '--out', out, '--stretch', 'log']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Wrote .*look\.png: 64 x 64, HDU 0, log stretch/);
    expect((await readPng(out)).width).toBe(64);
  });

  it('quicklook --out a link or a device writes through it, never renaming a file over it', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(32), EMULATOR_FILE);
    const folder = await temporaryFolder();
    const link = path.join(folder, 'latest.png');
    await symlink('kept.png', link);
    const run = await runBuiltCli(['quicklook', input, '--out', link]);
    expect(run.status, run.stderr).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await readPng(path.join(folder, 'kept.png'))).width).toBe(32);
    // As root a rename would turn the device into a plain file; it is written, and its refusal is one line.
    const full = await runBuiltCli(['quicklook', input, '--out', '/dev/full']);
    expect(full.status).toBe(2);
    expect(full.stderr).toBe('mlso-dl: Cannot write /dev/full: the disk is full.\n');
    expect((await stat('/dev/full')).isCharacterDevice()).toBe(true);
  });

  it('cr 2295 --json | cat', async () => {
    const run = await runPiped(['cr', '2295', '--json'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    expect(JSON.parse(run.output.toString())).toMatchObject({ rotation: 2295, start: '2025-03-02T11:59:56.606Z' });
  });

  it.each([
    ['quicklook', ['--out', 'x.png']],
    ['header', []],
  ])('%s: a missing or truncated file is one line on stderr, status 2, never a stack trace (header shows the header that came)', async (command, rest) => {
    const folder = await temporaryFolder();
    const truncated = await fitsFileOf(emulatorFitsBytes(64).subarray(0, 5000), 'cut.fts');
    const missing = path.join(folder, 'none.fts');
    const cases = [
      [missing, `mlso-dl: Cannot read ${missing}: there is no such file.\n`],
      [truncated, `mlso-dl: ${truncated} ends after 2,120 of 16,384 bytes of HDU 0's data.\n`],
    ];
    for (const [input, message] of cases) {
      const run = await runBuiltCli([command, input!, ...rest.map((arg) => (arg === 'x.png' ? path.join(folder, arg) : arg))]);
      expect([run.status, run.stderr]).toEqual([2, message]);
      expect(run.stdout.split('\n')[0]).toBe(command === 'header' && input === truncated ? '# HDU 0 (primary): 64 x 64 float32' : '');
    }
  });

  it('a file cut where an HDU ends, fewer HDUs than its NEXTEND declares: header | cat shows the HDUs that came, quicklook | cat nothing; one line, status 2', async () => {
    const whole = concat(
      emptyPrimary([
        ['NEXTEND', 3],
        ['TELESCOP', 'COSMO K-Coronagraph'],
      ]),
      imageHdu({ bitpix: 16, axes: [8, 8], stored: new Array(64).fill(7), extension: true, extname: 'pB' }),
      imageHdu({ bitpix: 16, axes: [8, 8], stored: new Array(64).fill(8), extension: true }),
      imageHdu({ bitpix: 16, axes: [8, 8], stored: new Array(64).fill(9), extension: true }),
    );
    const input = await fitsFileOf(whole.subarray(0, 3 * 2880), 'cut.fts');
    const refusal = `mlso-dl: ${input} ends after HDU 1: its primary header declares 3 extensions (NEXTEND = 3).\n`;
    const header = await runPiped(['header', input], 'cat');
    expect([header.statuses, header.stderr]).toEqual([[2, 0], refusal]);
    const shown = header.output.toString();
    expect(shown.split('\n').filter((line) => line.startsWith('# '))).toEqual(['# HDU 0 (primary)', "# HDU 1 (IMAGE, EXTNAME 'pB'): 8 x 8 int16"]);
    expect(shown).toContain("TELESCOP= 'COSMO K-Coronagraph'");
    const quicklook = await runPiped(['quicklook', input, '--out', '-'], 'cat');
    expect([quicklook.statuses, quicklook.stderr, quicklook.output.length]).toEqual([[2, 0], refusal, 0]);
  });

  it('cr with a bad number: one line, status 2', async () => {
    const run = await runBuiltCli(['cr', 'soon']);
    expect(run).toEqual({ status: 2, stdout: '', stderr: 'mlso-dl: Carrington rotation "soon" must be a positive whole number, e.g. 2295.\n' });
  });
});
