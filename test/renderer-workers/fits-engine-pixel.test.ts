// The FITS worker's readout of one pixel, for the quick-look and the player: the same reading `mlso-dl pixel`
// gives (pixel-reading.ts), from the decoded image the viewer already holds.
import { describe, expect, it, vi } from 'vitest';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { FitsEngine } from '../../src-renderer/quicklook/workers/fits-engine';
import { readFits } from '../../src-science/fits/fits-file';
import { decodeImage } from '../../src-science/fits/fits-image';
import { worldCoordinatesOf } from '../../src-science/fits/world-coordinates';
import { KCOR_PB, UCOMP_L2 } from '../helpers/emulator-subjects';

// Counted, to show the worker does not read them again on every pointer move.
vi.mock('../../src-science/fits/world-coordinates', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src-science/fits/world-coordinates')>();
  return { ...real, worldCoordinatesOf: vi.fn(real.worldCoordinatesOf) };
});

const kcor = KCOR_PB;
const ucomp = UCOMP_L2;
const sizes = { imageSize: 64, ucompImageSize: 0 };

describe('the FITS engine reads a pixel', () => {
  it('of an open file: value, unit and place, as the header and the decoded image give them', () => {
    const engine = new FitsEngine();
    const bytes = fitsBytes(kcor, sizes);
    const { document } = engine.open(bytes, kcor.filename);
    const image = decodeImage(readFits(bytes, kcor.filename), 0);
    const reading = engine.pixel(document, 0, 60, 20);
    expect(reading).toMatchObject({ pixel: { x: 60, y: 20 }, value: image.pixels[19 * 64 + 59], unit: 'B/Bsun', world: { kind: 'helioprojective' } });
    expect(reading.world!.solarRadii).toBeGreaterThan(1.5);
    expect(() => engine.pixel(document, 0, 65, 1)).toThrow('Pixel 65, 1 is outside the 64 × 64 image.');
    expect(() => engine.pixel(document, 0, 0, 1)).toThrow(/outside/);
  });

  it("of a UCoMP extension, with the primary header's solar radius; and of a kept player frame", () => {
    const engine = new FitsEngine();
    const { document } = engine.open(fitsBytes(ucomp, sizes), ucomp.filename);
    expect(engine.pixel(document, 1, 32, 32)).toMatchObject({ unit: 'ppm', world: { sunRadiusArcsec: expect.closeTo(962, 0) as number } });
    engine.loadFrame(7, fitsBytes(ucomp, sizes), ucomp.filename);
    expect(engine.framePixel(7, 1, 1)).toMatchObject({ pixel: { x: 1, y: 1 }, unit: 'ppm', world: { kind: 'helioprojective' } });
    expect(engine.framePixel(8, 1, 1)).toEqual({ missing: [8] });
  });
});

describe('the FITS engine, as the pointer moves', () => {
  it("reads the image's world coordinates once per image, not once per pixel pointed at", () => {
    const engine = new FitsEngine();
    const bytes = fitsBytes(ucomp, sizes);
    const { document } = engine.open(bytes, ucomp.filename);
    engine.loadFrame(7, bytes, ucomp.filename);
    vi.mocked(worldCoordinatesOf).mockClear();
    const readings = Array.from({ length: 50 }, (_, i) => engine.pixel(document, 1, 1 + i, 20));
    expect(vi.mocked(worldCoordinatesOf)).toHaveBeenCalledTimes(1);
    // Each reading is still its own pixel's: farther west, farther from Sun centre.
    expect(readings[49]!.world!.xArcsec).toBeGreaterThan(readings[0]!.world!.xArcsec);
    for (let i = 0; i < 50; i += 1) engine.framePixel(7, 1 + i, 30);
    expect(vi.mocked(worldCoordinatesOf)).toHaveBeenCalledTimes(2);
    // Another HDU of the file is another image, with its own.
    engine.pixel(document, 2, 1, 1);
    engine.pixel(document, 2, 2, 1);
    expect(vi.mocked(worldCoordinatesOf)).toHaveBeenCalledTimes(3);
  });
});
