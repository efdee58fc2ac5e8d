// The window's side of the FITS worker: typed calls that resolve with the worker's answer. File bytes are
// handed over to the worker (transferred, not copied) and rendered pixels come back the same way. Where there
// is no Worker (the renderer's tests run in jsdom) the same engine answers in the page's thread.
import type { FitsEngine } from './workers/fits-engine';
import FitsWorker from './workers/fits-worker.ts?worker&inline';
import {
  transferablesOf,
  type DisplayChoice,
  type FitsOperation,
  type FitsOperations,
  type FitsReply,
  type FitsRequest,
  type LoadedFrame,
  type MissingFrames,
  type OpenedFile,
  type OverlayAnswer,
  type AxesAnswer,
  type PixelReading,
  type RenderedImage,
} from './workers/fits-protocol';
import type { ClipRange } from '../../src-science/fits/image-stretch';

/** `fits`: the file is at fault (the message names it and says what is wrong); `internal`: the viewer is. */
export class FitsViewerError extends Error {
  constructor(
    message: string,
    readonly kind: 'fits' | 'internal',
  ) {
    super(message);
    this.name = 'FitsViewerError';
  }
}

/** One end of the conversation with the engine: a Worker, or the engine in this thread. */
export interface FitsPort {
  post(request: FitsRequest, transfer: ArrayBuffer[]): void;
  close(): void;
}

interface FitsPortEvents {
  reply(reply: FitsReply): void;
  /** The engine stopped (its script failed to load, or it threw outside a request): every pending call fails. */
  crash(message: string): void;
}

export type FitsPortFactory = (events: FitsPortEvents) => FitsPort;

interface Pending {
  resolve(value: unknown): void;
  reject(error: FitsViewerError): void;
}

export class FitsClient {
  private port: FitsPort | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly makePort: FitsPortFactory) {}

  call<O extends FitsOperation>(op: O, args: FitsOperations[O]['args']): Promise<FitsOperations[O]['result']> {
    const id = this.nextId++;
    // A port that crashed was dropped: the next call starts a fresh one.
    const port = (this.port ??= this.makePort({ reply: (reply) => this.settle(reply), crash: (message) => this.crashed(message) }));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        port.post({ id, op, args }, transferablesOf(args));
      } catch (error) {
        this.pending.delete(id);
        reject(new FitsViewerError(`The image viewer could not take the request: ${error instanceof Error ? error.message : String(error)}`, 'internal'));
      }
    });
  }

  open(bytes: Uint8Array, fileName: string): Promise<OpenedFile> {
    return this.call('open', { bytes, fileName });
  }

  render(document: number, hdu: number, display: DisplayChoice): Promise<RenderedImage> {
    return this.call('render', { document, hdu, display });
  }

  close(document: number): Promise<null> {
    return this.call('close', { document });
  }

  thumbnail(bytes: Uint8Array, fileName: string, maxSize: number, display: DisplayChoice): Promise<RenderedImage> {
    return this.call('thumbnail', { bytes, fileName, maxSize, display });
  }

  loadFrame(key: number, bytes: Uint8Array, fileName: string): Promise<LoadedFrame> {
    return this.call('load-frame', { key, bytes, fileName });
  }

  renderFrame(key: number, previousKey: number | null, display: DisplayChoice, clip: ClipRange | null): Promise<RenderedImage | MissingFrames> {
    return this.call('render-frame', { key, previousKey, display, clip });
  }

  /** Pixel (x, y), counted from 1 as FITS counts, of an open file's HDU: value, unit and place. */
  pixel(document: number, hdu: number, x: number, y: number): Promise<PixelReading> {
    return this.call('pixel', { document, hdu, x, y });
  }

  /** The same of a kept player frame. */
  framePixel(key: number, x: number, y: number): Promise<PixelReading | MissingFrames> {
    return this.call('frame-pixel', { key, x, y });
  }

  /** The limb, circles and north over an open file's HDU. */
  overlay(document: number, hdu: number, solarRadii: number[]): Promise<OverlayAnswer> {
    return this.call('overlay', { document, hdu, solarRadii });
  }

  /** The same over a kept player frame. */
  frameOverlay(key: number, solarRadii: number[]): Promise<OverlayAnswer | MissingFrames> {
    return this.call('frame-overlay', { key, solarRadii });
  }

  /** Helioprojective x and y ticked along an open file's HDU's edges, for a saved figure. */
  axes(document: number, hdu: number): Promise<AxesAnswer> {
    return this.call('axes', { document, hdu });
  }

  /** The same of a kept player frame. */
  frameAxes(key: number): Promise<AxesAnswer | MissingFrames> {
    return this.call('frame-axes', { key });
  }

  dropFrames(): Promise<null> {
    return this.call('drop-frames', null);
  }

  /** Starts the engine now and has it run its code once (see FitsEngine.warmUp). */
  warmUp(): Promise<null> {
    return this.call('warm-up', null);
  }

  /** Stops the engine; calls still waiting fail. */
  dispose(): void {
    this.port?.close();
    this.port = null;
    this.failPending('The image viewer was closed.');
  }

  private settle(reply: FitsReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(new FitsViewerError(reply.message, reply.kind));
  }

  private crashed(message: string): void {
    this.port?.close();
    this.port = null;
    this.failPending(`The image viewer stopped (${message}). Try again; if it keeps failing, restart MLSO Downloader.`);
  }

  private failPending(message: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const pending of waiting) pending.reject(new FitsViewerError(message, 'internal'));
  }
}

/**
 * The engine in a dedicated Worker. Vite bundles the worker's code into the app's own script (`?worker&inline`) and
 * starts it from a blob: URL, not from a file beside the page: the desktop window's page comes from file://, where
 * Chromium gives the page no origin and may refuse to load a worker script from another file. A worker from a
 * blob made by the page's own script starts the same way in the desktop app and in web mode (whose end-to-end
 * tests therefore cover it); the Content-Security-Policy allows workers from 'self' and blob: only.
 */
const workerPort: FitsPortFactory = (events) => {
  const worker = new FitsWorker({ name: 'fits-viewer' });
  worker.onmessage = (event: MessageEvent<FitsReply>) => events.reply(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    events.crash(event.message || 'its script could not be loaded');
  };
  worker.onmessageerror = () => events.crash('a reply could not be read');
  return { post: (request, transfer) => worker.postMessage(request, transfer), close: () => worker.terminate() };
};

/**
 * The engine in this thread, answering asynchronously (and in order) as a worker would. The engine's code is
 * loaded on first use, so the app's own bundle does not carry the FITS reader twice.
 */
export function inThreadPort(engine?: FitsEngine): FitsPortFactory {
  return (events) => {
    let closed = false;
    const ready = Promise.all([engine ?? import('./workers/fits-engine').then(({ FitsEngine }) => new FitsEngine()), import('./workers/fits-dispatch')]);
    return {
      post: (request) => {
        ready.then(
          ([answering, { answer }]) => {
            if (!closed) events.reply(answer(answering, request).reply);
          },
          (error: unknown) => events.crash(error instanceof Error ? error.message : String(error)),
        );
      },
      close: () => {
        closed = true;
      },
    };
  };
}

/** A Worker in the app; the page's own thread where there is none (jsdom, in the renderer's tests). */
export function createFitsClient(): FitsClient {
  return new FitsClient(typeof Worker === 'function' ? workerPort : inThreadPort());
}
