// What jsdom lacks for the quick-look's tests: a 2D canvas that records the pixels put on it (jsdom has no canvas
// drawing), ImageData, and a modal <dialog> (showModal, and close with its close event a task later). Installed for a test file with
// useCanvasAndDialog(); everything is put back afterwards.
import { afterAll, beforeAll } from 'vitest';

export interface DrawnImage {
  width: number;
  height: number;
  /** RGBA, top row first, as put on the canvas. */
  data: Uint8ClampedArray;
}

const drawn = new WeakMap<HTMLCanvasElement, DrawnImage>();

/** The pixels last put on a canvas, or undefined when nothing was drawn on it. */
export function drawnOn(canvas: Element | null): DrawnImage | undefined {
  return canvas instanceof HTMLCanvasElement ? drawn.get(canvas) : undefined;
}

/** The grey level (the red channel) at a canvas position of what was drawn. */
export function greyAt(image: DrawnImage, x: number, y: number): number {
  return image.data[(y * image.width + x) * 4]!;
}

class RecordingImageData {
  readonly colorSpace = 'srgb';
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
}

function recordingContext(canvas: HTMLCanvasElement): Partial<CanvasRenderingContext2D> {
  return {
    canvas,
    putImageData: ((image: ImageData) => {
      drawn.set(canvas, { width: image.width, height: image.height, data: new Uint8ClampedArray(image.data) });
    }) as CanvasRenderingContext2D['putImageData'],
  };
}

export function useCanvasAndDialog(): void {
  const canvasPrototype = HTMLCanvasElement.prototype;
  const dialogPrototype = HTMLDialogElement.prototype;
  const saved = {
    getContext: Object.getOwnPropertyDescriptor(canvasPrototype, 'getContext'),
    showModal: Object.getOwnPropertyDescriptor(dialogPrototype, 'showModal'),
    close: Object.getOwnPropertyDescriptor(dialogPrototype, 'close'),
    open: Object.getOwnPropertyDescriptor(dialogPrototype, 'open'),
    ImageData: (globalThis as { ImageData?: unknown }).ImageData,
  };

  beforeAll(() => {
    Object.defineProperty(canvasPrototype, 'getContext', {
      configurable: true,
      value(this: HTMLCanvasElement, kind: string) {
        return kind === '2d' ? recordingContext(this) : null;
      },
    });
    Object.defineProperty(dialogPrototype, 'open', {
      configurable: true,
      get(this: HTMLDialogElement) {
        return this.hasAttribute('open');
      },
    });
    Object.defineProperty(dialogPrototype, 'showModal', {
      configurable: true,
      value(this: HTMLDialogElement) {
        this.setAttribute('open', '');
      },
    });
    Object.defineProperty(dialogPrototype, 'close', {
      configurable: true,
      value(this: HTMLDialogElement) {
        if (!this.hasAttribute('open')) return;
        this.removeAttribute('open');
        // As in browsers, the close event comes a task later.
        setTimeout(() => this.dispatchEvent(new Event('close')), 0);
      },
    });
    (globalThis as { ImageData?: unknown }).ImageData = saved.ImageData ?? RecordingImageData;
  });

  afterAll(() => {
    for (const [prototype, name, descriptor] of [
      [canvasPrototype, 'getContext', saved.getContext],
      [dialogPrototype, 'showModal', saved.showModal],
      [dialogPrototype, 'close', saved.close],
      [dialogPrototype, 'open', saved.open],
    ] as const) {
      if (descriptor) Object.defineProperty(prototype, name, descriptor);
      else delete (prototype as unknown as Record<string, unknown>)[name];
    }
    (globalThis as { ImageData?: unknown }).ImageData = saved.ImageData;
  });
}
