// In the node project: the worker's engine needs no DOM, and its fixtures are files and Node-built emulator bodies.
// The app's quick look and thumbnails on a UCoMP file as the bundled emulator serves it: multi-extension FITS
// whose primary HDU holds no image, so both open on HDU 1, the first extension.
import { describe, expect, it } from 'vitest';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { FitsEngine } from '../../src-renderer/quicklook/workers/fits-engine';
import { UCOMP_L2 } from '../helpers/emulator-subjects';

const subject = UCOMP_L2;

describe("the app's quick look of an emulator UCoMP file", () => {
  it('opens on HDU 1, lists every extension by name, and makes a thumbnail from it', () => {
    const bytes = fitsBytes(subject, { imageSize: 24, ucompImageSize: 0 });
    const engine = new FitsEngine();
    const opened = engine.open(bytes, subject.filename);
    expect(opened.imageHdu).toBe(1);
    expect(opened.hdus).toHaveLength(7);
    expect(opened.hdus[0]).toMatchObject({ type: 'primary', isImage: false });
    expect(opened.hdus.slice(1).map((hdu) => [hdu.type, hdu.isImage, hdu.name])[5]).toEqual(['IMAGE', true, 'Weighted average I']);
    const image = engine.render(opened.document, 1, { stretch: 'asinh', clipPercents: [1, 99.5] });
    expect([image.width, image.height]).toEqual([24, 19]);
    const thumbnail = engine.thumbnail(bytes, subject.filename, 12, { stretch: 'linear', clipPercents: [0, 100] });
    expect([thumbnail.width, thumbnail.height]).toEqual([12, 10]);
  });
});
