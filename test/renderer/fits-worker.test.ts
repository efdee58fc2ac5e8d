// The FITS worker's engine and its message protocol: a new stretch does not decode again, player frames are kept
// within a bound, a running difference and its symmetric clip, file bytes and pixels cross as transferred buffers,
// the reader's messages come through as they are, and a stopped worker fails its calls and is started again.
import { describe, expect, it } from 'vitest';
import type { FitsFile } from '../../src-science/fits/fits-file';
import { decodeImage } from '../../src-science/fits/fits-image';
import { FitsClient, FitsViewerError, inThreadPort, type FitsPortFactory } from '../../src-renderer/quicklook/fits-worker-client';
import { answer } from '../../src-renderer/quicklook/workers/fits-dispatch';
import { FitsEngine, KEPT_FRAMES } from '../../src-renderer/quicklook/workers/fits-engine';
import type { DisplayChoice, FitsReply, FitsRequest, RenderedImage } from '../../src-renderer/quicklook/workers/fits-protocol';
import { emptyPrimary } from '../science/fits/fits-writer';
import { gradientFits, multiExtensionFits, NOT_FITS } from './fits-files';

const LINEAR_FULL: DisplayChoice = { stretch: 'linear', clipPercents: [0, 100] };

function countingEngine(): { engine: FitsEngine; decodes: number[] } {
  const decodes: number[] = [];
  const engine = new FitsEngine({
    decode: (file: FitsFile, hdu: number) => {
      decodes.push(hdu);
      return decodeImage(file, hdu);
    },
  });
  return { engine, decodes };
}

function greyAt(image: RenderedImage, x: number, y: number): number {
  return image.rgba[(y * image.width + x) * 4]!;
}

describe('the FITS engine', () => {
  it('decodes an HDU once: a new stretch or clip only renders again', () => {
    const { engine, decodes } = countingEngine();
    const opened = engine.open(multiExtensionFits(), 'ucomp.fts');
    expect(opened.imageHdu).toBe(1);
    expect(opened.hdus.map((hdu) => [hdu.type, hdu.isImage])).toEqual([
      ['primary', false],
      ['IMAGE', true],
      ['IMAGE', true],
      ['BINTABLE', false],
    ]);
    const linear = engine.render(opened.document, 1, LINEAR_FULL);
    engine.render(opened.document, 1, { stretch: 'log', clipPercents: [0, 100] });
    engine.render(opened.document, 1, { stretch: 'asinh', clipPercents: [1, 99.5] });
    expect(decodes).toEqual([1]);
    const other = engine.render(opened.document, 2, LINEAR_FULL);
    engine.render(opened.document, 1, LINEAR_FULL);
    expect(decodes).toEqual([1, 2]);
    expect([linear.width, linear.height, other.width, other.height, other.planes]).toEqual([4, 3, 5, 2, 2]);
    // FITS keeps the bottom row first; the canvas gets the top row first.
    expect(greyAt(linear, 0, 0)).toBe(Math.round((8 / 11) * 255));
    expect(greyAt(linear, 3, 2)).toBe(Math.round((3 / 11) * 255));
  });

  it('refuses a closed file with a sentence, and a file that is not FITS with the reader’s message', () => {
    const engine = new FitsEngine();
    const opened = engine.open(gradientFits(), 'a.fts');
    engine.close(opened.document);
    expect(() => engine.render(opened.document, 0, LINEAR_FULL)).toThrow(/no longer open/);
    expect(() => engine.open(NOT_FITS, 'page.fts')).toThrow('page.fts is not a FITS file: it does not start with "SIMPLE  =".');
  });

  it(`keeps at most ${KEPT_FRAMES} player frames, and asks for the ones it let go`, () => {
    const engine = new FitsEngine();
    for (let key = 1; key <= 20; key += 1) engine.loadFrame(key, gradientFits({ offset: key }), `${key}.fts`);
    expect(engine.keptFrameCount).toBe(KEPT_FRAMES);
    expect(engine.renderFrame(1, null, LINEAR_FULL, null)).toEqual({ missing: [1] });
    expect(engine.renderFrame(20, 2, LINEAR_FULL, null)).toEqual({ missing: [2] });
    expect('rgba' in engine.renderFrame(20, 19, LINEAR_FULL, null)).toBe(true);
    engine.dropFrames();
    expect(engine.keptFrameCount).toBe(0);
  });

  it('subtracts the previous frame for a running difference, shown about zero', () => {
    const engine = new FitsEngine();
    engine.loadFrame(1, gradientFits({ scale: 1 }), '1.fts');
    engine.loadFrame(2, gradientFits({ scale: 3 }), '2.fts');
    const result = engine.renderFrame(2, 1, LINEAR_FULL, null);
    if (!('rgba' in result)) throw new Error('expected pixels');
    // The difference is 2 x the gradient (0 to 94): the clip reaches as far below zero as above it.
    expect(result.clip).toEqual({ low: -94, high: 94 });
    // Bottom-left pixel of the FITS image (no change) is the canvas's bottom-left: mid-grey.
    expect(greyAt(result, 0, 5)).toBe(128);
    expect(greyAt(result, 7, 0)).toBe(255);
    // A bending stretch bends both sides of zero alike: no change stays mid-grey, small changes stand out.
    const bent = engine.renderFrame(2, 1, { stretch: 'asinh', clipPercents: [0, 100] }, result.clip);
    if (!('rgba' in bent)) throw new Error('expected pixels');
    expect(greyAt(bent, 0, 5)).toBe(128);
    expect(greyAt(bent, 1, 5)).toBeGreaterThan(greyAt(result, 1, 5));
    expect(greyAt(bent, 7, 0)).toBe(255);
  });

  it('takes the clip given for every frame, and reports the one it computed otherwise', () => {
    const engine = new FitsEngine();
    engine.loadFrame(1, gradientFits({ scale: 1 }), '1.fts');
    engine.loadFrame(2, gradientFits({ scale: 2 }), '2.fts');
    const first = engine.renderFrame(1, null, LINEAR_FULL, null);
    if (!('rgba' in first)) throw new Error('expected pixels');
    expect(first.clip).toEqual({ low: 0, high: 47 });
    const second = engine.renderFrame(2, null, LINEAR_FULL, first.clip);
    if (!('rgba' in second)) throw new Error('expected pixels');
    expect(second.clip).toEqual(first.clip);
    // Twice as bright with the first frame's clip: the upper half of the values saturates.
    expect(greyAt(second, 7, 0)).toBe(255);
  });

  it('makes a thumbnail no larger than asked, from the first image of the file', () => {
    const engine = new FitsEngine();
    const thumbnail = engine.thumbnail(multiExtensionFits(), 'ucomp.fts', 2, LINEAR_FULL);
    expect([thumbnail.width, thumbnail.height]).toEqual([2, 2]);
    expect(() => engine.thumbnail(NOT_FITS, 'page.fts', 48, LINEAR_FULL)).toThrow(/page\.fts is not a FITS file/);
  });
});

describe('the warm-up', () => {
  it('reads, decodes and renders a made-up file once, then holds nothing of it', () => {
    const { engine, decodes } = countingEngine();
    engine.warmUp();
    expect(decodes).toEqual([0]);
    expect(engine.keptFrameCount).toBe(0);
    // The made-up file was document 1 and is closed again; the next file opened is document 2.
    expect(() => engine.render(1, 0, LINEAR_FULL)).toThrow(/no longer open/);
    expect(engine.open(multiExtensionFits(), 'ucomp.fts').document).toBe(2);
  });

  it('answers through the client like any request', async () => {
    const client = new FitsClient(inThreadPort(new FitsEngine()));
    await expect(client.warmUp()).resolves.toBeNull();
  });
});

/** A port that passes every message through structured cloning with its transfer list, as postMessage does. */
function clonedPort(engine: FitsEngine, sent: { transfer: ArrayBuffer[] }[]): FitsPortFactory {
  return (events) => ({
    post(request: FitsRequest, transfer: ArrayBuffer[]) {
      sent.push({ transfer });
      const received = structuredClone(request, { transfer }) as FitsRequest;
      const { reply, transfer: back } = answer(engine, received);
      setTimeout(() => events.reply(structuredClone(reply, { transfer: back }) as FitsReply), 0);
    },
    close() {},
  });
}

describe('the FITS worker client', () => {
  it('hands the file’s bytes over without copying them, and gets the pixels back the same way', async () => {
    const sent: { transfer: ArrayBuffer[] }[] = [];
    const client = new FitsClient(clonedPort(new FitsEngine(), sent));
    const bytes = gradientFits();
    const size = bytes.byteLength;
    const opened = await client.open(bytes, 'a.fts');
    expect(sent[0]!.transfer).toEqual([bytes.buffer]);
    // Transferred: the window's copy is gone (detached), the worker has the only one.
    expect(bytes.byteLength).toBe(0);
    expect(size).toBeGreaterThan(0);
    const image = await client.render(opened.document, 0, LINEAR_FULL);
    expect(image.rgba.byteLength).toBe(8 * 6 * 4);
    expect(greyAt(image, 0, 5)).toBe(0);
  });

  it('passes the reader’s message on as it is, naming the file', async () => {
    const client = new FitsClient(inThreadPort());
    const truncated = gradientFits({ width: 64, height: 64 }).subarray(0, 2880 + 4096);
    await expect(client.open(truncated, 'cut.fts')).rejects.toThrow(new FitsViewerError("cut.fts ends after 4,096 of 16,384 bytes of HDU 0's data.", 'fits'));
    await expect(client.open(NOT_FITS, 'page.fts')).rejects.toMatchObject({ kind: 'fits', message: expect.stringMatching(/^page\.fts is not a FITS file/) });
    // Cut where its empty primary HDU ends, with three extensions declared, as downloads judge it.
    await expect(client.open(emptyPrimary([['NEXTEND', 3]]), 'ucomp.fts')).rejects.toThrow(
      new FitsViewerError('ucomp.fts ends after HDU 0: its primary header declares 3 extensions (NEXTEND = 3).', 'fits'),
    );
  });

  it('fails the calls a stopped worker leaves waiting, then starts a new one', async () => {
    const ports: { crash: (message: string) => void; closed: boolean }[] = [];
    const engine = new FitsEngine();
    const client = new FitsClient((events) => {
      const port = { crash: events.crash, closed: false };
      ports.push(port);
      return {
        post(request: FitsRequest) {
          // The first port never answers: it stops instead.
          if (ports.length > 1) setTimeout(() => events.reply(answer(engine, request).reply), 0);
        },
        close() {
          port.closed = true;
        },
      };
    });
    const waiting = client.open(gradientFits(), 'a.fts');
    ports[0]!.crash('its script could not be loaded');
    await expect(waiting).rejects.toThrow(
      'The image viewer stopped (its script could not be loaded). Try again; if it keeps failing, restart MLSO Downloader.',
    );
    expect(ports[0]!.closed).toBe(true);
    await expect(client.open(gradientFits(), 'a.fts')).resolves.toMatchObject({ fileName: 'a.fts' });
    expect(ports).toHaveLength(2);
  });
});
