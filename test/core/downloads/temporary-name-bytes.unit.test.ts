// The length of a temporary name, told without making one (the enqueuer's path check asks it of every listed file),
// is the length of every name temporaryNameFor makes: short names, names cut to fit, names of many-byte characters.
import { describe, expect, it } from 'vitest';
import { temporaryNameBytes, temporaryNameFor } from '../../../src-main/core/downloads/temporary-files';

describe('temporaryNameBytes', () => {
  it('is the byte length of the temporary names made for names of every length and kind', () => {
    const names: string[] = [];
    for (let n = 1; n <= 260; n += 1) names.push('a'.repeat(n), 'é'.repeat(Math.ceil(n / 2)), `${'b'.repeat(n)}\u{1F600}.fts`);
    for (const name of names) expect(temporaryNameBytes(name), name).toBe(Buffer.byteLength(temporaryNameFor(name)));
  });
});
