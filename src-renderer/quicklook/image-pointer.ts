// Which pixel of an image is under the pointer, when the image is drawn into a box scaled to fit (CSS object-fit:
// contain, centred), as the quick-look and the player draw it. Counted as FITS counts: from 1, row 1 at the bottom
// (the canvas shows the top row first).

export interface ImagePixel {
  x: number;
  y: number;
}

/**
 * The FITS pixel at (`offsetX`, `offsetY`) within a box `boxWidth` x `boxHeight` showing an image `width` x `height`
 * scaled to fit, or null outside the image (in the bands beside it, or off the box).
 */
export function pixelUnderPointer(offsetX: number, offsetY: number, boxWidth: number, boxHeight: number, width: number, height: number): ImagePixel | null {
  if (width <= 0 || height <= 0 || boxWidth <= 0 || boxHeight <= 0) return null;
  const scale = Math.min(boxWidth / width, boxHeight / height);
  const left = (boxWidth - width * scale) / 2;
  const top = (boxHeight - height * scale) / 2;
  const column = Math.floor((offsetX - left) / scale);
  const rowFromTop = Math.floor((offsetY - top) / scale);
  if (column < 0 || column >= width || rowFromTop < 0 || rowFromTop >= height) return null;
  return { x: column + 1, y: height - rowFromTop };
}
