// The player's "Export movie": its frames, as it draws them (clip, stretch, colour map, running difference), each
// with its time burned into the lower-left corner, encoded by the browser's WebCodecs and written by mediabunny:
// MP4 with H.264 where the encoder offers it, otherwise WebM with VP9. One frame is rendered at a time; the
// encoder's backpressure paces the loop. A signal cancels it (nothing is saved).
import { BufferTarget, CanvasSource, getFirstEncodableVideoCodec, Mp4OutputFormat, Output, QUALITY_HIGH, WebMOutputFormat } from 'mediabunny';
import type { RenderedImage } from './workers/fits-protocol';

export interface MovieExportRequest {
  /** How many frames, rendered by `render(0)` to `render(count - 1)`. */
  count: number;
  fps: number;
  /** The longer side of the movie in pixels; undefined for the frames' own size. */
  size?: number;
  render: (index: number) => Promise<RenderedImage>;
  /** The text burned into frame `index`'s corner (its time). */
  label: (index: number) => string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface ExportedMovie {
  blob: Blob;
  extension: 'mp4' | 'webm';
  codec: 'avc' | 'vp9';
  width: number;
  height: number;
}

class NoVideoEncoderError extends Error {}

export async function exportMovie(request: MovieExportRequest, host: Document = document): Promise<ExportedMovie> {
  const first = await request.render(0);
  const scale = request.size === undefined ? 1 : request.size / Math.max(first.width, first.height);
  // Encoders take even sizes only.
  const even = (value: number): number => Math.max(2, 2 * Math.round((value * scale) / 2));
  const width = even(first.width);
  const height = even(first.height);
  const codec = await getFirstEncodableVideoCodec(['avc', 'vp9'], { width, height });
  if (codec !== 'avc' && codec !== 'vp9') throw new NoVideoEncoderError('This browser offers no H.264 or VP9 video encoder, so no movie can be made here.');
  const target = new BufferTarget();
  const output = new Output({ format: codec === 'avc' ? new Mp4OutputFormat({ fastStart: 'in-memory' }) : new WebMOutputFormat(), target });
  const canvas = host.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  const source = new CanvasSource(canvas, { codec, bitrate: QUALITY_HIGH });
  output.addVideoTrack(source, { frameRate: request.fps });
  await output.start();
  const picture = host.createElement('canvas');
  try {
    for (let index = 0; index < request.count; index += 1) {
      request.signal?.throwIfAborted();
      const image = index === 0 ? first : await request.render(index);
      picture.width = image.width;
      picture.height = image.height;
      picture.getContext('2d')!.putImageData(new ImageData(image.rgba, image.width, image.height), 0, 0);
      ctx.imageSmoothingEnabled = scale < 1;
      ctx.drawImage(picture, 0, 0, width, height);
      burnLabel(ctx, request.label(index), width, height);
      await source.add(index / request.fps, 1 / request.fps);
      request.onProgress?.(index + 1, request.count);
    }
    request.signal?.throwIfAborted();
    await output.finalize();
  } catch (error) {
    await output.cancel().catch(() => undefined);
    throw error;
  }
  const extension = codec === 'avc' ? 'mp4' : 'webm';
  return { blob: new Blob([target.buffer!], { type: extension === 'mp4' ? 'video/mp4' : 'video/webm' }), extension, codec, width, height };
}

/** The frame's time, white on a dark band in the lower-left corner, sized to the movie. */
function burnLabel(ctx: CanvasRenderingContext2D, label: string, width: number, height: number): void {
  const size = Math.max(10, Math.round(width / 40));
  ctx.font = `${size}px "DejaVu Sans", sans-serif`;
  const band = { width: Math.min(width, ctx.measureText(label).width + size), height: Math.round(size * 1.8) };
  ctx.fillStyle = 'rgb(0 0 0 / 0.6)';
  ctx.fillRect(0, height - band.height, band.width, band.height);
  ctx.fillStyle = '#fff';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, size / 2, height - band.height / 2);
}
