// Inputs and runs for the tests of quicklook, header and cr: FITS files written into a temporary folder, and
// mlso-dl run in-process with both streams captured (these commands need no server).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'fast-png';
import { runCli } from '../../src-main/cli/run-cli';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { Capture, temporaryFolder, type CliRun } from '../helpers/fixtures';

/** mlso-dl with these arguments, in-process. */
export async function mlsoDl(...args: string[]): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const status = await runCli(args, { stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

/** Writes `bytes` as `name` in a new temporary folder; returns its path. */
export async function fitsFileOf(bytes: Uint8Array, name = 'test.fts'): Promise<string> {
  const file = path.join(await temporaryFolder(), name);
  await writeFile(file, bytes);
  return file;
}

export const EMULATOR_FILE = '20250324_210304_kcor_l2_pb.fts';

/** A KCor-like file from the emulator: occulted disk of radius 1.05 x size/6 around the centre, corona outside. */
export function emulatorFitsBytes(size: number): Uint8Array {
  return fitsBytes({ instrument: 'kcor', product: 'pb', filename: EMULATOR_FILE, dateObs: '2025-03-24T21:03:04' }, { imageSize: size, ucompImageSize: 0 });
}

export interface Png {
  width: number;
  height: number;
  channels: number;
  depth: number;
  /** Grey level at column x of row y, row 0 being the top. */
  at: (x: number, y: number) => number;
}

export async function readPng(file: string): Promise<Png> {
  return pngOf(await readFile(file));
}

export function pngOf(bytes: Uint8Array): Png {
  const png = decode(bytes);
  return { width: png.width, height: png.height, channels: png.channels, depth: png.depth, at: (x, y) => png.data[y * png.width + x]! };
}
