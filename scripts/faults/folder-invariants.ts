// The two promises every fault case (and the soak) ends on, checked from the disk and the ledger alone:
//   1. no corrupt or partial file under a final name: every file that is not a temporary one is byte for byte what
//      the server serves for it (decompressed), and no temporary file is left behind once the engine is done;
//   2. the ledger matches the folder: every `done` job's file is there with the size and SHA-256 recorded, and no
//      final-named file exists without a `done` job.
// Plain Node (no test framework), under scripts/ so that the benchmark's soak may use it as test/faults/ does. It
// reports every violation instead of stopping at the first, so one run shows the whole damage.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DownloadLedger } from '../../src-main/core/downloads/download-ledger';
import { isTemporaryName } from '../../src-main/core/downloads/temporary-files';

export interface FolderInvariantsInput {
  /** The download folder; walked with its sub-folders (a campaign's layout). */
  folder: string;
  ledger: DownloadLedger;
  /** The decompressed bytes the server serves for a listed file. */
  expectedBytes: (instrument: string, filename: string) => Promise<Buffer>;
  /** Temporary files may remain (the engine is still running); by default one left over is a leak. */
  temporaryFilesAllowed?: boolean;
}

export interface FolderReport {
  /** Files under their final names, relative to the folder. */
  finalFiles: string[];
  temporaryFiles: string[];
  /** `done` jobs whose target lies in the folder. */
  doneJobs: number;
  /** One sentence per broken promise; empty when both hold. */
  violations: string[];
}

export async function checkFolderInvariants(input: FolderInvariantsInput): Promise<FolderReport> {
  const folder = path.resolve(input.folder);
  const files = (await filesUnder(folder)).sort();
  const finalFiles = files.filter((file) => !isTemporaryName(path.basename(file)));
  const temporaryFiles = files.filter((file) => isTemporaryName(path.basename(file)));
  const violations: string[] = [];
  const relative = (file: string): string => path.relative(folder, file);

  if (!input.temporaryFilesAllowed) {
    for (const file of temporaryFiles) violations.push(`temporary file ${relative(file)} was left behind`);
  }

  const jobs = input.ledger.findByTargets(finalFiles);
  for (const file of finalFiles) {
    const job = jobs.get(file);
    if (!job || job.state !== 'done') {
      violations.push(`${relative(file)} is under its final name but its job is ${job ? job.state : 'missing from the ledger'}`);
      continue;
    }
    let expected: Buffer;
    try {
      expected = await input.expectedBytes(job.instrument, job.filename);
    } catch (error) {
      violations.push(`${relative(file)}: the server has no such file (${(error as Error).message})`);
      continue;
    }
    const actual = await readFile(file);
    if (!actual.equals(expected)) {
      violations.push(`${relative(file)} differs from what the server serves (${actual.length} bytes, expected ${expected.length})`);
    }
  }

  const done = input.ledger.list({ states: ['done'], includeCleared: true }).filter((job) => isInside(folder, job.targetPath));
  const present = new Set(finalFiles);
  for (const job of done) {
    const name = relative(job.targetPath);
    if (!present.has(job.targetPath)) {
      violations.push(`${name} is done in the ledger but not in the folder`);
      continue;
    }
    const bytes = await readFile(job.targetPath);
    if (bytes.length !== job.bytesWritten) violations.push(`${name} holds ${bytes.length} bytes, the ledger recorded ${job.bytesWritten}`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== job.sha256) violations.push(`${name} does not have the SHA-256 the ledger recorded`);
  }

  return { finalFiles: finalFiles.map(relative).sort(), temporaryFiles: temporaryFiles.map(relative).sort(), doneJobs: done.length, violations };
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
