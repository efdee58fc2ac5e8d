// Commit subjects keep the rule of CONTRIBUTING.md (scripts/commit-subjects.mjs): at most 72 characters, no
// trailing period, an imperative first word. The history after BASE is held to it; older history is what it is.
// The commit-msg hook uses the same module, and is driven here through a real `git commit`.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectOf, subjectProblems, subjectsSince } from '../../scripts/commit-subjects.mjs';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** main's head when the rule was set. */
const BASE = 'd791f0a';
const IDENTITY = ['-c', 'user.name=Test', '-c', 'user.email=test@example.org', '-c', 'commit.gpgsign=false'];

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mlso-commits-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A new repository with one commit per message, made without any hook. */
async function repositoryWith(name: string, messages: readonly string[]): Promise<string> {
  const dir = path.join(scratch, name);
  await run('git', ['init', '-q', '-b', 'main', dir]);
  for (const message of messages) await run('git', [...IDENTITY, 'commit', '-q', '--allow-empty', '-m', message], { cwd: dir });
  return dir;
}

it(`every commit after ${BASE} has a subject of at most 72 characters, imperative, without a trailing period`, async () => {
  const history = await subjectsSince(BASE, { cwd: root });
  if ('unavailable' in history) throw new Error(history.unavailable);
  const broken = history.commits.flatMap(({ hash, subject }) => subjectProblems(subject).map((problem) => `${hash.slice(0, 9)} "${subject}": ${problem}`));
  expect(broken).toEqual([]);
});

describe('the rule', () => {
  it.each([
    ['Check settled files on disk before counting them'],
    ['Embed the colour maps in the bundle'],
    ['README: destinations, whole names and the Cancelled tab'],
    ['x'.repeat(72)],
  ])('accepts "%s"', (subject) => {
    expect(subjectProblems(subject)).toEqual([]);
  });

  it.each([
    ['x'.repeat(73), /73 characters; keep it to 72/],
    ['Check settled files on disk before counting them.', /ends with a period/],
    ['Added a changelog', /starts with "Added"; say what the commit does in the imperative/],
    ['Fixes the ledger', /starts with "Fixes"/],
    ['Adding a flag', /starts with "Adding"/],
  ])('refuses "%s"', (subject, why) => {
    expect(subjectProblems(subject).join('\n')).toMatch(why);
  });

  it('takes the subject as git does: the first paragraph, comment lines left out', () => {
    expect(subjectOf('# a comment\n\nKeep the queue\npaused\n\nThe body.\n# Please enter the commit message\n')).toBe('Keep the queue paused');
  });

  it('leaves out what `git commit -v` shows below the scissors line', () => {
    const diff = '# ------------------------ >8 ------------------------\n# Do not modify or remove the line above.\ndiff --git a/x b/x\n';
    expect(subjectOf(`\n# Please enter the commit message\n${diff}`)).toBe('');
    expect(subjectOf(`Keep the queue paused\n${diff}`)).toBe('Keep the queue paused');
  });
});

describe('the commit-msg hook', () => {
  it('refuses a commit whose subject breaks the rule and keeps one that keeps it', async () => {
    const dir = await repositoryWith('hooked', []);
    await run('git', ['config', 'core.hooksPath', path.join(root, 'scripts', 'git-hooks')], { cwd: dir });
    const bad = 'Added the planted subject, which says what it did rather than what it does.';
    const refused = await run('git', [...IDENTITY, 'commit', '--allow-empty', '-m', bad], { cwd: dir }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain('starts with "Added"');
    expect(refused?.stderr).toContain('ends with a period');
    expect(refused?.stderr).toContain('75 characters');
    await run('git', [...IDENTITY, 'commit', '-q', '--allow-empty', '-m', 'Add the planted subject\n\nWith its details in the body.'], { cwd: dir });
    const { stdout } = await run('git', ['log', '--format=%s'], { cwd: dir });
    expect(stdout).toBe('Add the planted subject\n');
  });
});

describe('when the history cannot be read', () => {
  it('says that a shallow clone must be unshallowed', async () => {
    const full = await repositoryWith('full', ['Add one', 'Add two']);
    const shallow = path.join(scratch, 'shallow');
    await run('git', ['clone', '-q', '--depth', '1', `file://${full}`, shallow]);
    const { stdout } = await run('git', ['rev-parse', 'HEAD~1'], { cwd: full });
    const history = await subjectsSince(stdout.trim(), { cwd: shallow });
    expect(history).toEqual({
      unavailable: `the clone at ${shallow} is shallow: run \`git fetch --unshallow\` so the commits after ${stdout.trim()} can be read.`,
    });
  });

  it('says that git is missing', async () => {
    const history = await subjectsSince(BASE, { cwd: root, git: path.join(scratch, 'no-git-here') });
    expect(history).toEqual({ unavailable: expect.stringMatching(/is not installed or not on PATH: install git/) });
  });

  it('says that the base is not in the history', async () => {
    const other = await repositoryWith('other', ['Add one']);
    const history = await subjectsSince(BASE, { cwd: other });
    expect(history).toEqual({ unavailable: `commit ${BASE} is not in this clone's history: fetch the full history of the main branch.` });
  });
});
