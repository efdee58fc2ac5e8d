// `mlso-dl movie` burns each frame's time into it through one canvas made for the movie, not one per frame (a
// 200-frame movie made 200 canvases). In-process, with @napi-rs/canvas's createCanvas counted.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it, vi } from 'vitest';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { temporaryFolder } from '../helpers/fixtures';
import { mlsoDl } from './fits-test-input';

vi.mock('@napi-rs/canvas', async (importOriginal) => {
  const real = await importOriginal<typeof import('@napi-rs/canvas')>();
  return { ...real, createCanvas: vi.fn(real.createCanvas) };
});

describe('mlso-dl movie labels', () => {
  it('twelve frames, one canvas for their labels', async () => {
    const folder = await temporaryFolder();
    const files: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const dateObs = new Date(Date.UTC(2025, 2, 24, 21, 0, i * 15)).toISOString().slice(0, 19);
      const filename = `${dateObs.replace(/[-:]/g, '').replace('T', '_')}_kcor_l2_pb.fts`;
      files.push(path.join(folder, filename));
      await writeFile(files.at(-1)!, fitsBytes({ instrument: 'kcor', product: 'pb', filename, dateObs }, { imageSize: 48, ucompImageSize: 0 }));
    }
    vi.mocked(createCanvas).mockClear();
    const out = `${folder}/frames/`;
    const run = await mlsoDl('movie', ...files, '--out', out);
    expect(run.stderr).toMatch(/^Wrote .*: 12 frames of 48 x 48/);
    expect(await readdir(out)).toHaveLength(12);
    expect(vi.mocked(createCanvas)).toHaveBeenCalledTimes(1);
  });
});
