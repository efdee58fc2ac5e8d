import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticFile } from '../../src-main/web/static-files';
import { temporaryFolder } from '../helpers/fixtures';

describe('the renderer files web mode serves', () => {
  it('serves from a folder given by a relative path, and nothing outside it', async () => {
    const root = await temporaryFolder();
    await mkdir(path.join(root, 'renderer'));
    await writeFile(path.join(root, 'renderer', 'index.html'), '<title>MLSO Downloader</title>');
    await writeFile(path.join(root, 'secret.txt'), 'not for pages');
    const relative = path.relative(process.cwd(), path.join(root, 'renderer'));
    expect((await staticFile(relative, '/'))?.body.toString()).toContain('MLSO Downloader');
    expect(await staticFile(relative, '/../secret.txt')).toBeUndefined();
    expect(await staticFile(relative, '/%2e%2e/secret.txt')).toBeUndefined();
  });

  it('finds nothing for a folder, a bad escape or a NUL byte', async () => {
    const root = await temporaryFolder();
    await mkdir(path.join(root, 'assets'));
    expect(await staticFile(root, '/assets')).toBeUndefined();
    expect(await staticFile(root, '/%E0%A4%A')).toBeUndefined();
    expect(await staticFile(root, '/index.html%00.js')).toBeUndefined();
  });
});
