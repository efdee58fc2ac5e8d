// A file cut inside the padding of its last data unit, as users run the commands that read it (the built mlso-dl,
// node scripts/build-main.mjs first): `header`, `quicklook`, `pixel` and `movie` read it as astropy reads it (every
// HDU, the whole file's data: scripts/fixtures/make_cut_padding.py) and say so in one line on stderr, even with
// --quiet; the whole file gets no such line.
import { copyFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'cut-padding');
const NAME = '20250324_210304_kcor_l2_pb.fts';

/** The whole file and its copy cut 800 bytes short of its last block, under one name in two folders. */
let whole: string;
let cut: string;
let cutExtensions: string;

beforeAll(async () => {
  whole = path.join(await temporaryFolder(), NAME);
  cut = path.join(await temporaryFolder(), NAME);
  cutExtensions = path.join(await temporaryFolder(), 'ucomp.fts');
  await copyFile(path.join(FIXTURES, 'image.fits'), whole);
  await copyFile(path.join(FIXTURES, 'image-cut800.fits'), cut);
  await copyFile(path.join(FIXTURES, 'extensions-cut800.fits'), cutExtensions);
});

afterEach(async () => {
  await stopBuiltCli();
});

const warning = (file: string): string =>
  `${file} ends 2,080 bytes into its last 2,880-byte block, 800 bytes short of it (FITS pads every HDU to whole blocks); read as astropy reads it.\n`;

describe('the built mlso-dl reading a file cut inside its last padding', () => {
  it('header, and header --hdu 2 of a file of extensions: the cards the whole file has, status 0, one line on stderr', async () => {
    const [read, asWhole] = await Promise.all([runBuiltCli(['header', cut]), runBuiltCli(['header', whole])]);
    expect(asWhole.stderr).toBe('');
    expect(read).toEqual({ status: 0, stdout: asWhole.stdout, stderr: warning(cut) });
    const extension = await runBuiltCli(['header', cutExtensions, '--hdu', '2']);
    expect(extension).toMatchObject({ status: 0, stderr: warning(cutExtensions) });
    expect(extension.stdout.startsWith("XTENSION= 'IMAGE   '")).toBe(true);
    expect(extension.stdout).toContain("EXTNAME = 'Q       '");
  });

  it('quicklook --out - | cat: the PNG of the whole file, byte for byte, and the line; --quiet keeps the line', async () => {
    const [read, asWhole] = await Promise.all([runPiped(['quicklook', cut, '--out', '-'], 'cat'), runPiped(['quicklook', whole, '--out', '-'], 'cat')]);
    expect(asWhole.stderr).toBe('');
    expect(read.statuses).toEqual([0, 0]);
    expect(read.stderr).toBe(warning(cut));
    expect(read.output.equals(asWhole.output)).toBe(true);
    const quiet = await runBuiltCli(['--quiet', 'quicklook', cut, '--out', path.join(path.dirname(cut), 'look.png')]);
    expect(quiet).toEqual({ status: 0, stdout: '', stderr: warning(cut) });
  });

  it('quicklook as a figure (--colormap): the line too', async () => {
    const run = await runBuiltCli(['quicklook', cut, '--out', path.join(path.dirname(cut), 'figure.png'), '--colormap', 'viridis']);
    expect(run.status).toBe(0);
    expect(run.stderr.startsWith(warning(cut))).toBe(true);
  });

  it('pixel --json: the value the whole file holds, and the line', async () => {
    const [read, asWhole] = await Promise.all([runBuiltCli(['pixel', cut, '50', '40', '--json']), runBuiltCli(['pixel', whole, '50', '40', '--json'])]);
    expect(read).toMatchObject({ status: 0, stderr: warning(cut) });
    expect({ ...JSON.parse(read.stdout), file: 'x' }).toEqual({ ...JSON.parse(asWhole.stdout), file: 'x' });
  });

  it('movie --out frames/: its frame made, and the line', async () => {
    const out = `${await temporaryFolder()}/frames/`;
    const run = await runBuiltCli(['movie', cut, '--out', out]);
    expect(run.status).toBe(0);
    expect(run.stderr.startsWith(warning(cut))).toBe(true);
    expect(await readdir(out)).toEqual(['frame-00001.png']);
  });
});
