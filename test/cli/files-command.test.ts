import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { cliAgainst, listFolder, temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 64 });

const cli = cliAgainst(emulator);

describe('mlso-dl files', () => {
  it('lists files as a table with human sizes, unknown sizes and a lower-bound total', async () => {
    emulator().transformListing = (listing) => {
      const files = listing['files'] as Record<string, unknown>[];
      if (files[0]) files[0]['filesize'] = 0;
      return listing;
    };
    const { status, stdout } = await cli('files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24T21:03:00', '-e', '2025-03-24T21:04:00');
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Date\/time\s+Instrument\s+Product\s+Size \(gz\)\s+Filename$/);
    expect(lines[2]).toMatch(/^2025-03-24T21:03:\d\d\s+kcor\s+pb\s+unknown 20250324_2103\d\d_kcor_l2_pb\.fts$/);
    expect(lines[3]).toMatch(/\d+\.\d (KB|MB) 20250324_2103\d\d_kcor_l2_pb\.fts$/);
    expect(stdout).toMatch(/\n\d+ files\s+≥ [\d.]+ (KB|MB) compressed \(KB = 1024 B\); files are saved decompressed\n/);
    expect(stdout).toContain('lower bound');
  });

  it('shows wave region and observing plan columns for UCoMP', async () => {
    const { status, stdout } = await cli('files', '-i', 'ucomp', '-p', 'l2', '--wave-region', '1074', '--obs-plan', 'synoptic', '-s', '2025-03-24');
    expect(status).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/Wave\s+Obs plan\s+Filename/);
    expect(stdout).toMatch(/1074\s+synoptic\S*\s+20250324\.\d{6}\.ucomp\.1074\.l2\.fts/);
  });

  it('--json prints the server object', async () => {
    const { status, stdout } = await cli('files', '-i', 'kcor', '-p', 'pb', '--cr', '2295', '--every', '1day', '--json');
    expect(status).toBe(0);
    const listing = JSON.parse(stdout);
    expect(listing).toMatchObject({ instrument: 'kcor', product: 'pb' });
    expect(listing.files.length).toBeGreaterThan(0);
    expect(typeof listing.total_filesize).toBe('number');
  });

  it.each([
    // The last figure is the requests it makes first: one for the product's metadata, which lists its filters.
    [['--every', '2fortnights'], /second, minute, hour, day, week, month, quarter or year/, 0],
    [['-s', '2025-02-30'], /real calendar date/, 0],
    [['-s', '24/03/2025'], /YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS/, 0],
    [['-c', 'x'], /positive whole number/, 0],
    [['-s', '2025-03-25', '-e', '2025-03-24'], /is after end date/, 0],
    [['--wave-region', '789'], /does not accept the wave-region filter; it accepts start-date, end-date, cr, every/, 1],
  ])('refuses %j with exit 2 and the allowed form', async (args, message, requests) => {
    emulator().resetStats();
    const { status, stderr } = await cli('files', '-i', 'kcor', '-p', 'pb', ...args);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    // Refused before listing or downloading anything.
    expect(emulator().stats()).toMatchObject({ requests, listingBytesSent: 0, downloadsStarted: 0 });
  });

  it('refuses a bad wave region with the allowed values', async () => {
    const { status, stderr } = await cli('files', '-i', 'ucomp', '-p', 'l2', '--wave-region', '999');
    expect(status).toBe(2);
    expect(stderr).toContain('637, 706, 789, 1074, 1079');
  });
});

describe('mlso-dl files --download', () => {
  const query = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24', '--every', '1hour'];

  it('writes byte-correct FITS files and nothing else; a second run downloads nothing', async () => {
    const folder = path.join(await temporaryFolder(), 'out');
    const first = await cli(...query, '--download', '--username', DEMO_EMAIL, '--output-dir', folder);
    expect(first.status).toBe(0);
    const names = await listFolder(folder);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) {
      expect(name).toMatch(/^20250324_\d{6}_kcor_l2_pb\.fts$/);
      expect((await readFile(path.join(folder, name))).equals(await emulator().fileBytes('kcor', name))).toBe(true);
    }
    expect(first.stderr).toMatch(new RegExp(`Downloaded ${names.length} files .* skipped 0 already complete; 0 failed`));

    emulator().resetStats();
    const second = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder);
    expect(second.status).toBe(0);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`Downloaded 0 files .* skipped ${names.length} already complete`));
    expect(await listFolder(folder)).toEqual(names);
  });

  it('replaces a half-written file left under the real name', async () => {
    const folder = await temporaryFolder();
    // A ledger of its own: the files of the tests before, finished in other folders, would be reused instead.
    const state = ['--state-dir', await temporaryFolder()];
    await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder, ...state);
    const [name] = await listFolder(folder);
    const full = await readFile(path.join(folder, name!));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(folder, name!), full.subarray(0, 3000));
    emulator().resetStats();
    const again = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder, ...state);
    expect(again.status).toBe(0);
    expect(emulator().stats().downloadsStarted).toBe(1);
    expect((await readFile(path.join(folder, name!))).equals(full)).toBe(true);
  });

  it('needs a username (exit 2)', async () => {
    const { status, stderr } = await cli(...query, '--download');
    expect(status).toBe(2);
    expect(stderr).toContain('-u/--username');
    expect(stderr).toContain('https://registration.hao.ucar.edu');
  });

  it('an unknown user gets the registration site (exit 1)', async () => {
    const folder = await temporaryFolder();
    const { status, stderr } = await cli(...query, '-d', '-u', 'stranger@example.org', '-o', folder);
    expect(status).toBe(1);
    expect(stderr).toContain('stranger@example.org is not registered');
    expect(stderr).toContain('https://registration.hao.ucar.edu');
    expect(await listFolder(folder)).toEqual([]);
  });

  it('on failure exits 1 and lists what failed and why; the rest still arrive', async () => {
    const folder = await temporaryFolder();
    const listing = JSON.parse((await cli(...query, '--json')).stdout) as { files: { filename: string }[] };
    const victim = listing.files[1]!.filename;
    emulator().injectFault(victim, 'html-500', 10);
    // A ledger of its own: the files of the tests before, finished in other folders, would be reused instead.
    const state = ['--state-dir', await temporaryFolder()];
    const { status, stderr } = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder, '--retries', '2', '--retry-delay', '10ms', ...state);
    expect(status).toBe(1);
    expect(stderr).toContain(`failed: ${victim}: The server answered 500`);
    expect(stderr).toContain('gave up after 3 attempts');
    expect(emulator().stats().downloadsByFile[victim]).toBe(3);
    expect(await listFolder(folder)).toEqual(
      listing.files
        .map((f) => f.filename)
        .filter((n) => n !== victim)
        .sort(),
    );
  });

  it('renews an expired session once and carries on', async () => {
    const folder = await temporaryFolder();
    const listing = JSON.parse((await cli(...query, '--json')).stdout) as { files: { filename: string }[] };
    const refused = listing.files[1]!.filename;
    emulator().injectFault(refused, 'unauthorized');
    emulator().resetStats();
    // A ledger of its own: the files of the tests before, finished in other folders, would be reused instead.
    const { status } = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', await temporaryFolder());
    expect(status).toBe(0);
    expect(await listFolder(folder)).toHaveLength(listing.files.length);
    // A renewal, not a plain retry: the sign-in before the first file, then one more after the refusal.
    expect(emulator().stats().authentications).toBe(2);
    expect(emulator().stats().downloadsByFile[refused]).toBe(2);
  });

  it('refuses unsafe names from the listing and saves the rest', async () => {
    const folder = await temporaryFolder();
    emulator().transformListing = (listing) => {
      const files = listing['files'] as Record<string, unknown>[];
      files[0]!['filename'] = '../../escape.fts';
      return listing;
    };
    const { status, stderr } = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder);
    expect(status).toBe(1);
    expect(stderr).toContain('failed: ../../escape.fts: unsafe file name');
    expect((await listFolder(folder)).every((name) => /^20250324_\d{6}_kcor_l2_pb\.fts$/.test(name))).toBe(true);
  });
});
