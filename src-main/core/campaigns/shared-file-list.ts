// A campaign's shared file list as imported, kept beside its copy (campaign-backups) so that a new ledger takes the
// list back with the campaign: its files, and the SHA-256 each was promised, are known only from it. One checked
// entry a line (JSON Lines), written as the import reads them and read back a piece at a time, so that a list of a
// million files never sits in memory whole. The file's own name, layout and queries are not kept: the campaign's
// copy says those as they are now.
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import { InvalidInputError } from '../errors';
import { sharedFileSchema, type SharedFile } from './campaign-file';
import { entryOfStored, relativePathOf, targetPathOf } from './campaign-paths';
import type { CampaignFileRecord, StoredCampaign } from './campaign-store';

/** A line longer than this is no entry (a real one takes some 450 bytes): the list is refused, not read on. */
const LONGEST_LINE_BYTES = 64 * 1024;
const READ_BYTES = 1024 * 1024;
/** Entries handed on at a time. */
const BATCH = 1000;

/** The entries a shared file list names as the campaign's files, placed by its layout, and those refused (unsafe names). */
export function sharedFileRecords(
  campaign: Pick<StoredCampaign, 'folder' | 'layout'>,
  files: readonly SharedFile[],
): { taken: SharedFile[]; records: CampaignFileRecord[]; refused: { filename: string; reason: string }[] } {
  const taken: SharedFile[] = [];
  const records: CampaignFileRecord[] = [];
  const refused: { filename: string; reason: string }[] = [];
  for (const file of files) {
    const safe = checkSafeFilename(file.filename);
    if (!safe.ok) {
      refused.push({ filename: file.filename, reason: `unsafe file name: ${safe.reason}` });
      continue;
    }
    taken.push(file);
    records.push(recordOf(campaign, file));
  }
  return { taken, records, refused };
}

/** A shared file's entry as the campaign's file, placed by its layout. */
function recordOf(campaign: Pick<StoredCampaign, 'folder' | 'layout'>, file: SharedFile): CampaignFileRecord {
  const stored = {
    filename: file.filename,
    url: file.url,
    instrument: file.instrument,
    product: file.product,
    dateObs: file['date-obs'],
    waveRegion: file['wave-region'] || null,
    obsPlan: file['obs-plan'] || null,
    filesize: file.filesize ?? 0,
    expectedSha256: file.sha256 ?? null,
  };
  const relativePath = relativePathOf(campaign.layout, entryOfStored(stored));
  return { ...stored, relativePath, targetPath: targetPathOf(campaign.folder, relativePath) };
}

/**
 * A list being written under a name of its own (`partial`), put in place whole (`keepAs`) or not at all
 * (`discard`): a crash half-way leaves no list a new ledger would take for the whole.
 */
export class SharedFileListWriter {
  private fd: number | undefined;

  constructor(private readonly partial: string) {}

  add(files: readonly SharedFile[]): void {
    if (files.length === 0) return;
    this.fd ??= openSync(this.partial, 'w');
    const bytes = Buffer.from(files.map((file) => `${JSON.stringify(file)}\n`).join(''));
    for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
  }

  /** Puts the list at `file`, flushed to disk first; a list of no files is no list (nothing is written). */
  keepAs(file: string): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    this.close();
    renameSync(this.partial, file);
  }

  discard(): void {
    this.close();
    rmSync(this.partial, { force: true });
  }

  private close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Reads a kept list, handing on its checked entries `BATCH` at a time; false when there is none. A line that is not
 * an entry fails the whole list, naming the line.
 */
export function readSharedFileList(file: string, each: (batch: SharedFile[]) => void): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(READ_BYTES);
    let rest = '';
    let line = 0;
    let batch: SharedFile[] = [];
    const take = (text: string): void => {
      line += 1;
      batch.push(entryOf(text, line));
      if (batch.length >= BATCH) {
        each(batch);
        batch = [];
      }
    };
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const lines = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
      rest = lines.pop()!;
      for (const text of lines) take(text);
      if (Buffer.byteLength(rest) > LONGEST_LINE_BYTES) throw notAnEntry(line + 1, `longer than ${LONGEST_LINE_BYTES / 1024} KB`);
    }
    rest += decoder.end();
    if (rest !== '') take(rest);
    if (batch.length > 0) each(batch);
    return true;
  } finally {
    closeSync(fd);
  }
}

function entryOf(text: string, line: number): SharedFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notAnEntry(line, 'not JSON');
  }
  const checked = sharedFileSchema.safeParse(value);
  if (!checked.success) throw notAnEntry(line, checked.error.issues[0]!.message);
  return checked.data;
}

const notAnEntry = (line: number, why: string): InvalidInputError => new InvalidInputError(`line ${line} is not a file entry (${why})`);
