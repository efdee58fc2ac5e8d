// The part of gifenc (which ships no types) that mlso-dl movie uses.
declare module 'gifenc' {
  export interface FrameOptions {
    palette?: number[][];
    /** Milliseconds this frame is shown. */
    delay?: number;
    /** 0 loops for ever; -1 plays once. */
    repeat?: number;
  }
  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void;
    finish(): void;
    bytesView(): Uint8Array;
  }
  export function GIFEncoder(options?: { auto?: boolean; initialCapacity?: number }): Encoder;
}
