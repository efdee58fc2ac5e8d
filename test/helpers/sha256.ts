// The SHA-256 the ledger and the download report record for a file's bytes, for tests to compare with.
import { createHash } from 'node:crypto';

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
