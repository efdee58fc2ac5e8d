// Answers one request with the engine: the reply to post back, and the buffers to hand over with it. Kept apart
// from the worker's entry point so the same code answers in the page's thread (renderer tests) and in tests of
// the message protocol itself.
import { FitsReadError } from '../../../src-science/fits/fits-file';
import type { FitsEngine } from './fits-engine';
import { transferablesOf, type FitsOperation, type FitsOperations, type FitsReply, type FitsRequest } from './fits-protocol';

export interface Answer {
  reply: FitsReply;
  transfer: ArrayBuffer[];
}

type Handlers = { [O in FitsOperation]: (engine: FitsEngine, args: FitsOperations[O]['args']) => FitsOperations[O]['result'] };

const HANDLERS: Handlers = {
  open: (engine, { bytes, fileName }) => engine.open(bytes, fileName),
  render: (engine, { document, hdu, display }) => engine.render(document, hdu, display),
  close: (engine, { document }) => {
    engine.close(document);
    return null;
  },
  thumbnail: (engine, { bytes, fileName, maxSize, display }) => engine.thumbnail(bytes, fileName, maxSize, display),
  'load-frame': (engine, { key, bytes, fileName }) => engine.loadFrame(key, bytes, fileName),
  'render-frame': (engine, { key, previousKey, display, clip }) => engine.renderFrame(key, previousKey, display, clip),
  pixel: (engine, { document, hdu, x, y }) => engine.pixel(document, hdu, x, y),
  'frame-pixel': (engine, { key, x, y }) => engine.framePixel(key, x, y),
  overlay: (engine, { document, hdu, solarRadii }) => engine.overlay(document, hdu, solarRadii),
  'frame-overlay': (engine, { key, solarRadii }) => engine.frameOverlay(key, solarRadii),
  axes: (engine, { document, hdu }) => engine.axes(document, hdu),
  'frame-axes': (engine, { key }) => engine.frameAxes(key),
  'drop-frames': (engine) => {
    engine.dropFrames();
    return null;
  },
  'warm-up': (engine) => {
    engine.warmUp();
    return null;
  },
};

export function answer(engine: FitsEngine, request: FitsRequest): Answer {
  const handler = HANDLERS[request.op] as ((engine: FitsEngine, args: unknown) => unknown) | undefined;
  try {
    if (!handler) throw new Error(`the viewer does not know the request "${String(request.op)}"`);
    const value = handler(engine, request.args);
    return { reply: { id: request.id, ok: true, value }, transfer: transferablesOf(value) };
  } catch (error) {
    const kind = error instanceof FitsReadError ? 'fits' : 'internal';
    const message = error instanceof Error ? error.message : String(error);
    return { reply: { id: request.id, ok: false, kind, message }, transfer: [] };
  }
}
