// The part of gifenc (which ships no types) that mlso-dl movie uses.
declare module 'gifenc' {
  export interface FrameOptions {
    palette?: number[][];
    /** Milliseconds this frame is shown. */
    delay?: number;
    /** 0 loops for ever; -1 plays once. */
    repeat?: number;
    /** In manual mode (auto: false): this frame is the first, which writes the global palette. */
    first?: boolean;
  }
  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void;
    finish(): void;
    bytesView(): Uint8Array;
    /** Empties the buffer the bytes so far were written to. */
    reset(): void;
    /** In manual mode: the GIF's header, before the first frame. */
    writeHeader(): void;
  }
  export function GIFEncoder(options?: { auto?: boolean; initialCapacity?: number }): Encoder;
}
