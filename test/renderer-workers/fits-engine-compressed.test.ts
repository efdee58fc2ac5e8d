// In the node project: the worker's engine needs no DOM, and its fixtures are files and Node-built emulator bodies.
// The viewer opens a tile-compressed image (a BINTABLE with ZIMAGE = T, as fpack and astropy write them) as it
// opens any other: the HDU is an image of its own size and type, and it renders as astropy renders it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FitsEngine } from '../../src-renderer/quicklook/workers/fits-engine';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'tile-compressed');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

describe('the FITS engine on tile-compressed images', () => {
  it('a RICE_1 image: HDU 1 is a 64 x 48 16-bit image, shown by default, grey levels as astropy gives them', () => {
    const engine = new FitsEngine();
    const opened = engine.open(fixture('int16_rice.fits'), 'int16_rice.fits');
    expect(opened.imageHdu).toBe(1);
    expect(opened.hdus[1]).toMatchObject({ type: 'BINTABLE', isImage: true, axes: [64, 48], bitpix: 16 });
    const image = engine.render(opened.document, 1, { stretch: 'asinh', clipPercents: [1, 99.5] });
    expect([image.width, image.height]).toEqual([64, 48]);
    const grey = Array.from({ length: 64 * 48 }, (_, i) => image.rgba[i * 4]);
    expect(grey).toEqual(Array.from(fixture('int16_rice.grey')));
  });

  it('thumbnails and player frames of a quantized float image', () => {
    const engine = new FitsEngine();
    const bytes = fixture('float32_rice_dither1.fits');
    expect(engine.thumbnail(bytes, 'f.fits', 16, { stretch: 'linear', clipPercents: [0, 100] })).toMatchObject({ width: 16, height: 12 });
    expect(engine.loadFrame(1, bytes, 'f.fits')).toMatchObject({ width: 64, height: 48 });
  });
});
