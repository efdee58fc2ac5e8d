// UCoMP files as the emulator serves them: multi-extension FITS whose listed size tracks what is sent, and at the
// real size (ucompImageSize 1280: 1280 x 1024 images) level 2 files of ~31.5 MB, as the reference listing shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { readFits } from '../../src-science/fits/fits-file';
import { FitsLayoutWalker } from '../../src-science/fits/fits-layout';
import { decodeBody, listFiles, rawGet, sessionCookie } from './http-helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await createEmulator({ imageSize: 32, days: 1, bodyForm: 'gzip-body' });
});
afterAll(() => emulator.close());

describe('UCoMP downloads', () => {
  it('every product is an empty primary HDU then the NEXTEND image extensions it declares, each named', async () => {
    const cookie = await sessionCookie(emulator);
    for (const product of ['l1', 'intensity', 'mean', 'median', 'sigma', 'l2', 'l2average', 'density', 'dynamics', 'polarization']) {
      const [listed] = await listFiles(emulator, 'ucomp', product);
      const response = await rawGet(listed!.url, { Cookie: cookie });
      const bytes = decodeBody(response);
      const file = readFits(bytes, listed!.filename);
      const [primary, ...extensions] = file.hdus;
      expect([product, primary!.values.get('NAXIS'), primary!.values.get('EXTEND'), primary!.values.get('NEXTEND')]).toEqual([
        product,
        0,
        true,
        extensions.length,
      ]);
      expect(extensions.length).toBeGreaterThan(0);
      for (const hdu of extensions) expect([product, hdu.type, hdu.axes, typeof hdu.name]).toEqual([product, 'IMAGE', [32, 26], 'string']);
      const walker = new FitsLayoutWalker();
      walker.write(bytes);
      expect(walker.finish()).toEqual({ complete: true, bytes: bytes.length });
    }
  });

  it('at ucompImageSize 1280 (1280 x 1024 images) a level 2 file is ~31.5 MB, listed within a few percent of its gzipped size, KCor unchanged', async () => {
    emulator.setOptions({ ucompImageSize: 1280, zeroFilesizeRate: 0 });
    try {
      const cookie = await sessionCookie(emulator);
      const [listed] = await listFiles(emulator, 'ucomp', 'l2', 'wave-region=789');
      const response = await rawGet(listed!.url, { Cookie: cookie });
      const bytes = decodeBody(response);
      expect(bytes.length).toBe(2880 + 6 * (2880 + 1821 * 2880)); // 31,487,040: the reference's is 31,501,440
      expect(Math.abs(listed!.filesize / response.body.length - 1)).toBeLessThan(0.05);
      expect(readFits(bytes, listed!.filename).hdus[1]!.axes).toEqual([1280, 1024]);
      const [kcor] = await listFiles(emulator, 'kcor', 'pb');
      expect((await emulator.fileBytes('kcor', kcor!.filename)).length).toBe(2880 + Math.ceil((32 * 32 * 4) / 2880) * 2880);
    } finally {
      emulator.setOptions({ ucompImageSize: 0, zeroFilesizeRate: 0.05 });
    }
  });

  it('refuses a ucompImageSize that is not a whole number from 0 (the same as imageSize) to 16384', () => {
    for (const bad of [-1, 1.5, 16385, '64']) {
      expect(() => emulator.setOptions({ ucompImageSize: bad } as never)).toThrow(/"ucompImageSize" must be an integer from 0 to 16384/);
    }
  });
});
