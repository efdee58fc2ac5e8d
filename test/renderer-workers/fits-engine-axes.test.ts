// The FITS worker's axes for the app's saved figure ("Axes in arcsec"): the ticks `quicklook --axes` draws
// (figure-axes.ts) from the same keywords, of an open file's HDU or of a kept player frame.
import { describe, expect, it } from 'vitest';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { FitsEngine } from '../../src-renderer/quicklook/workers/fits-engine';
import { figureAxes } from '../../src-science/figures/figure-axes';
import { readFits } from '../../src-science/fits/fits-file';
import { keywordsOf } from '../../src-science/fits/pixel-reading';
import { UCOMP_L2 } from '../helpers/emulator-subjects';
import { imageHdu } from '../science/fits/fits-writer';

const sizes = { imageSize: 64, ucompImageSize: 0 };

describe('the FITS engine gives a figure its axes', () => {
  it("of an open file's HDU and of a kept frame: the command line's ticks of the same keywords", () => {
    const engine = new FitsEngine();
    const bytes = fitsBytes(UCOMP_L2, sizes);
    const { document } = engine.open(bytes, UCOMP_L2.filename);
    const file = readFits(bytes, UCOMP_L2.filename);
    const image = { width: file.hdus[1]!.axes[0]!, height: file.hdus[1]!.axes[1]! };
    const wanted = figureAxes(keywordsOf(file, 1), image);
    expect('ticks' in wanted && wanted.ticks.some((tick) => tick.label === '0″')).toBe(true);
    expect(engine.axes(document, 1)).toEqual(wanted);
    engine.loadFrame(7, bytes, UCOMP_L2.filename);
    expect(engine.frameAxes(7)).toEqual(wanted);
    expect(engine.frameAxes(8)).toEqual({ missing: [8] });
  });

  it('says why an image without world coordinates has none', () => {
    const engine = new FitsEngine();
    const { document } = engine.open(imageHdu({ bitpix: 8, axes: [4, 3], stored: new Array<number>(12).fill(1) }), 'plain.fts');
    expect(engine.axes(document, 0)).toEqual({ reason: 'its header names no coordinate axes (CTYPE1, CTYPE2)' });
  });
});
