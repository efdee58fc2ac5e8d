// The LICENSE file says what package.json says: its license, and the holder package.json names as author.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

describe('the LICENSE file', () => {
  it('is the license package.json names, held by its author', async () => {
    const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { license: string; author: { name: string } };
    const license = await readFile(new URL('LICENSE', root), 'utf8');
    expect(manifest.license).toBe('MIT');
    expect(license.split('\n')[0]).toBe('MIT License');
    expect(license).toMatch(new RegExp(`^Copyright \\(c\\) \\d{4} ${manifest.author.name}$`, 'm'));
  });
});
