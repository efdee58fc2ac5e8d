// The readout of the pixel under the pointer, shared by the quick-look and the player: the pointer moves faster
// than the worker answers, so one pixel is read at a time and, when it answers, only the latest pointed pixel is
// read next (the ones in between are skipped); an answer for a pixel no longer pointed at is never shown.
import type { ImagePixel } from './image-pointer';
import type { PixelReading } from './workers/fits-protocol';

/** Reads a pixel of what is shown now; null when nothing can be read (no image, a file closed meanwhile). */
export type PixelReader = (pixel: ImagePixel) => Promise<PixelReading | null>;

export class PixelReadout {
  /** What the pixel under the pointer holds and where it is; null while the pointer is off the image. */
  reading = $state.raw<PixelReading | null>(null);
  private pointed: ImagePixel | null = null;
  private busy = false;
  /** Bumped when the picture changes: an answer about the one before is dropped. */
  private generation = 0;

  constructor(private readonly read: PixelReader) {}

  /** The pointer is over `pixel` (null: it left the image). */
  pointAt(pixel: ImagePixel | null): void {
    this.pointed = pixel;
    if (!pixel) this.reading = null;
    else if (!this.busy) void this.readPointed();
  }

  /** The picture under the pointer changed (another file, HDU or frame): reads the pointed pixel of the new one. */
  changed(): void {
    this.generation += 1;
    this.reading = null;
    if (this.pointed && !this.busy) void this.readPointed();
  }

  /** Forgets the pointer (the dialog closed). */
  clear(): void {
    this.generation += 1;
    this.pointed = null;
    this.reading = null;
  }

  private async readPointed(): Promise<void> {
    this.busy = true;
    try {
      for (;;) {
        const pixel = this.pointed;
        if (!pixel) return;
        const generation = this.generation;
        let reading: PixelReading | null = null;
        try {
          reading = await this.read(pixel);
        } catch {
          // The file closed or the frame was dropped meanwhile: the readout stays empty until the pointer moves.
        }
        if (this.pointed === pixel && this.generation === generation) {
          this.reading = reading;
          return;
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
