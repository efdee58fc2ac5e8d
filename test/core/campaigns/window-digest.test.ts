// A window's digest is remembered by the campaign and compared at the next sync: however it is computed, it must
// stay SHA-256 over the entries' lines (name, size, observation time), sorted, each ending in a newline, or every
// window of an existing campaign would read as changed once.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WindowDigest } from '../../../src-main/core/campaigns/campaign-windows';

describe("a window's digest", () => {
  it('is SHA-256 over the sorted lines of its entries, whatever their number and order', () => {
    for (const count of [0, 1, 999, 1000, 1001, 2500]) {
      const entries = Array.from({ length: count }, (_, index) => ({
        'date-obs': `2025-03-24T${String(index % 24).padStart(2, '0')}:00:00`,
        filename: `f${(index * 7919) % 10007}.fts`,
        filesize: index,
        instrument: 'kcor',
        product: 'pb',
        url: 'u',
      }));
      const digest = new WindowDigest();
      for (const entry of entries) digest.add(entry);
      const lines = entries.map((entry) => `${entry.filename}\t${entry.filesize}\t${entry['date-obs']}`).sort();
      const expected = createHash('sha256');
      for (const line of lines) expected.update(`${line}\n`);
      expect(digest.entries).toBe(count);
      expect(digest.digest(), `${count} entries`).toBe(expected.digest('hex'));
    }
  });
});
