// A window's digest is remembered by the campaign and compared at the next sync: however it is computed, it must
// stay SHA-256 over the entries' lines (name, size, observation time), sorted, each ending in a newline, or every
// window of an existing campaign would read as changed once.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WindowDigest } from '../../../src-main/core/campaigns/campaign-windows';

describe("a window's digest", () => {
  it('is SHA-256 over the sorted lines of its entries, whatever their number and order', () => {
    const entry = (name: string, index: number) => ({
      'date-obs': `2025-03-24T${String(index % 24).padStart(2, '0')}:00:00`,
      filename: name,
      filesize: index,
      instrument: 'kcor',
      product: 'pb',
      url: 'u',
    });
    const inOrder = (count: number) => Array.from({ length: count }, (_, index) => entry(`f${String(index).padStart(5, '0')}.fts`, index));
    const listings = [0, 1, 999, 1000, 1001, 2500].flatMap((count) => [
      Array.from({ length: count }, (_, index) => entry(`f${(index * 7919) % 10007}.fts`, index)),
      inOrder(count),
      // In order but for one late entry, past the first thousand; one with a newline in its name; one listed twice.
      [...inOrder(count), entry('f00000.fts', 0)],
      [...inOrder(count).slice(0, 1500), entry('g\nf.fts', 1), ...inOrder(count).slice(1500)],
      [...inOrder(count).slice(0, 10), entry('f00009z\n.fts', 1), ...inOrder(count).slice(10), entry('f00000.fts', 0)],
      [...inOrder(count), ...inOrder(count).slice(-1)],
    ]);
    for (const entries of listings) {
      const count = entries.length;
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
