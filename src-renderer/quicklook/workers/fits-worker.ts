// The FITS worker's entry point: decoding and stretching off the window's thread, so a large image never
// freezes the window. Each request is answered in turn; pixels go back as transferred buffers.
import { answer } from './fits-dispatch';
import { FitsEngine } from './fits-engine';
import type { FitsRequest } from './fits-protocol';

/** The parts of a dedicated worker's global scope used here (the renderer is typed with the DOM library). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<FitsRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

const engine = new FitsEngine();
const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { reply, transfer } = answer(engine, event.data);
  scope.postMessage(reply, transfer);
};
