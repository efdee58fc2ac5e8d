// The README's `--hdu 1` examples, run as users run them: the built mlso-dl starts the emulator, downloads a UCoMP
// level 2 file (multi-extension FITS: an empty primary HDU, then named image extensions) and looks at HDU 1.
// Needs the built command line (node scripts/build-main.mjs).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, startMockServer, stopBuiltCli } from '../helpers/built-cli';
import { listFolder, temporaryFolder } from '../helpers/fixtures';
import { readPng } from './fits-test-input';

afterEach(async () => {
  await stopBuiltCli();
});

describe('a UCoMP file from the emulator, looked at with --hdu 1', () => {
  it('downloads as multi-extension FITS; quicklook --hdu 1 and header --hdu 1 --json read its first extension', async () => {
    const { banner } = await startMockServer(['--image-size', '16', '--ucomp-image-size', '40']);
    const url = /listening on (http:\/\/\S+)$/.exec(banner)?.[1];
    expect(url, banner).toBeDefined();
    const folder = path.join(await temporaryFolder(), 'out');
    const query = ['files', '-i', 'ucomp', '-p', 'l2', '--wave-region', '789', '-s', '2025-03-24', '--every', '1day'];
    const download = await runBuiltCli(['--base-url', url!, ...query, '-d', '-u', DEMO_EMAIL, '-o', folder]);
    expect(download.status, download.stderr).toBe(0);
    const [name] = await listFolder(folder);
    expect(name).toMatch(/^20250324\.\d{6}\.ucomp\.789\.l2\.fts$/);
    const file = path.join(folder, name!);

    const png = path.join(folder, 'look.png');
    const look = await runBuiltCli(['quicklook', file, '--hdu', '1', '--out', png, '--stretch', 'log', '--clip', '0.5,99.9']);
    expect(look.status, look.stderr).toBe(0);
    expect(look.stderr).toMatch(/^Wrote .*look\.png: 40 x 32, HDU 1, log stretch/);
    expect((await readPng(png)).width).toBe(40);

    const header = await runBuiltCli(['header', file, '--hdu', '1', '--json']);
    expect(header.status, header.stderr).toBe(0);
    const cards = JSON.parse(header.stdout) as { keyword: string; value: unknown }[];
    expect(cards).toContainEqual(expect.objectContaining({ keyword: 'XTENSION', value: 'IMAGE' }));
    expect(cards).toContainEqual(expect.objectContaining({ keyword: 'EXTNAME', value: 'Center wavelength intensity' }));
    expect(cards).toContainEqual(expect.objectContaining({ keyword: 'NAXIS1', value: 40 }));
    expect(cards).toContainEqual(expect.objectContaining({ keyword: 'NAXIS2', value: 32 }));
    expect(cards).toContainEqual(expect.objectContaining({ keyword: 'DATE-OBS' }));

    // The primary HDU holds no image and says how many extensions follow.
    const primary = await runBuiltCli(['header', file, '--hdu', '0', '--json']);
    expect(JSON.parse(primary.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ keyword: 'NAXIS', value: 0 }), expect.objectContaining({ keyword: 'NEXTEND', value: 6 })]),
    );
  });
});
