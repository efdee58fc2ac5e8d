import { describe, expect, it } from 'vitest';
import { pixelUnderPointer } from '../../src-renderer/quicklook/image-pointer';

describe('the pixel under the pointer', () => {
  it('counts from 1 at the bottom-left, as FITS does, in an image scaled to fill its box exactly', () => {
    // A 4 x 2 image drawn 400 x 200: each pixel is a 100 px square.
    expect(pixelUnderPointer(0, 199, 400, 200, 4, 2)).toEqual({ x: 1, y: 1 });
    expect(pixelUnderPointer(399, 0, 400, 200, 4, 2)).toEqual({ x: 4, y: 2 });
    expect(pixelUnderPointer(150, 120, 400, 200, 4, 2)).toEqual({ x: 2, y: 1 });
  });

  it('leaves out the bands beside a letterboxed image', () => {
    // A 2 x 2 image in a 400 x 200 box: drawn 200 x 200, from x = 100 to 300.
    expect(pixelUnderPointer(99, 100, 400, 200, 2, 2)).toBeNull();
    expect(pixelUnderPointer(100, 100, 400, 200, 2, 2)).toEqual({ x: 1, y: 1 });
    expect(pixelUnderPointer(299, 0, 400, 200, 2, 2)).toEqual({ x: 2, y: 2 });
    expect(pixelUnderPointer(300, 0, 400, 200, 2, 2)).toBeNull();
    // And above and below a tall box's image.
    expect(pixelUnderPointer(50, 10, 100, 300, 1, 1)).toBeNull();
    expect(pixelUnderPointer(50, 150, 100, 300, 1, 1)).toEqual({ x: 1, y: 1 });
  });

  it('a box or image of no size has no pixel', () => {
    expect(pixelUnderPointer(0, 0, 0, 100, 10, 10)).toBeNull();
    expect(pixelUnderPointer(0, 0, 100, 100, 0, 10)).toBeNull();
  });
});
