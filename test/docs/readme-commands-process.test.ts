// The README and the guide are followed verbatim: every sh, bash and console block of README.md and of each
// docs/**/*.md runs here, in order, each file in one bash session of its own (a block's `cd` and `export` hold for the
// next, as in a terminal) in a temporary home folder. The README's session runs in a throwaway copy of this checkout
// (its tracked and untracked files, node_modules hard-linked) and installs as a newcomer does: `npm install`, then
// `npm link` into a temporary npm prefix, whose mlso-dl every later block and file then uses. Each file's own blocks
// start the demo server they ask; the files say so where they rely on it.
// A block that cannot run as it stands says how it runs in a `<!-- readme-test: KIND (WHY) -->` line above it:
//   serves   each line runs until it prints an http:// address, which must answer HTTP; then Ctrl-C (SIGINT) ends it.
//   ci       the line is `npm test`, which cannot run inside itself: .ci/run runs this very line (checked here).
//   crontab  a crontab: each job's command runs as cron runs it (the schedule dropped, `\%` read as `%`, /bin/sh,
//            cron's environment and the crontab's PATH line), with /usr/local/bin in that line standing for the
//            temporary npm prefix's bin folder and this test's Node, and MLSO_BASE_URL kept, so it asks the demo server.
// Any other mark fails the test: no block is left out unsaid.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = path.resolve(import.meta.dirname, '../..');
/** The port the walk-through and the guide start the demo server on (not 5000, which mlsoapi-parity's --local tests take). */
const DEMO_PORT = 5055;
const MARK = /^<!-- readme-test: ([a-z]+) \((.+)\) -->$/;
const KINDS = ['serves', 'ci', 'crontab'] as const;
type Kind = 'run' | (typeof KINDS)[number];
/** How long a `serves` line may take to print its address: `npm install && npm start` installs and builds first. */
const SERVE_DEADLINE_S = 300;

interface CommandBlock {
  /** The line of the file the block's opening fence is on, counted from 1. */
  line: number;
  kind: Kind;
  /** The commands, as a shell reads them. */
  script: string;
}

/**
 * A file's command blocks: fenced as sh, bash or console (whose commands are the lines after `$ `). The languages of
 * the other fenced blocks, which are not commands, are pushed onto `others`.
 */
function commandBlocks(markdown: string, file: string, others: string[] = []): CommandBlock[] {
  const lines = markdown.split('\n');
  const blocks: CommandBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^```(\S*)\s*$/.exec(lines[index]!)?.[1];
    if (fence === undefined) continue;
    const language = ['sh', 'bash', 'console'].includes(fence) ? fence : undefined;
    if (language === undefined) {
      // Another language's block (ini, js, a program's output) is not run here: say so, and refuse a mark above it.
      if (/^<!-- readme-test:/.test(lines[index - 1]?.trim() ?? ''))
        throw new Error(`${file} line ${index}: a readme-test mark above a ${fence || 'plain'} block, which is not run`);
      let end = index + 1;
      while (end < lines.length && !lines[end]!.startsWith('```')) end += 1;
      others.push(fence || 'plain');
      index = end;
      continue;
    }
    const marked = /^<!-- readme-test:/.test(lines[index - 1]?.trim() ?? '') ? MARK.exec(lines[index - 1]!.trim()) : undefined;
    if (marked === null || (marked && !(KINDS as readonly string[]).includes(marked[1]!))) {
      throw new Error(`${file} line ${index}: a readme-test mark must be one of ${KINDS.join(', ')}, with why in brackets`);
    }
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !lines[end]!.startsWith('```'); end += 1) body.push(lines[end]!);
    const commands = language === 'console' ? body.filter((text) => text.startsWith('$ ')).map((text) => text.slice(2)) : body;
    blocks.push({ line: index + 1, kind: (marked?.[1] as Kind | undefined) ?? 'run', script: commands.join('\n') });
    index = end;
  }
  return blocks;
}

/** A word a shell reads as the text given, whatever it holds. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** A command line without its trailing comment. */
function withoutComment(line: string): string {
  return line.replace(/\s+#.*$/, '').trim();
}

/** The bash functions behind the marked blocks. */
const SESSION_HELPERS = path.join(import.meta.dirname, 'session-helpers.sh');

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Sends `signal` to every process of the group; false once none is left. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until no process of the group is left, killing what is still there after 10 s of SIGTERM; a zombie nobody
 * reaps would answer for ever, so the wait ends 5 s after the kill.
 */
async function groupGone(group: number): Promise<void> {
  signalGroup(group, 'SIGTERM');
  const killAt = Date.now() + 10_000;
  while (signalGroup(group, 0) && Date.now() < killAt + 5_000) {
    if (Date.now() > killAt) signalGroup(group, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The markdown files whose blocks run: the README, then every file under docs/, in path order. */
async function documentedFiles(): Promise<string[]> {
  const docs = (await readdir(path.join(projectRoot, 'docs'), { recursive: true }))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name))
    .sort();
  return ['README.md', ...docs];
}

/** The checkout as a clone would hold it: tracked and untracked files git does not ignore, node_modules hard-linked. */
async function throwawayCheckout(into: string): Promise<void> {
  const { stdout } = await promisify(execFile)('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of new Set(stdout.split('\0').filter(Boolean))) {
    const from = path.join(projectRoot, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet in git's index
    await mkdir(path.dirname(path.join(into, file)), { recursive: true });
    await copyFile(from, path.join(into, file));
  }
  await promisify(execFile)('cp', ['-al', path.join(projectRoot, 'node_modules'), path.join(into, 'node_modules')]);
  // npm rewrites its record of the tree in place: a copy, so that it never writes through a link into the real one.
  const record = path.join(into, 'node_modules', '.package-lock.json');
  await rm(record);
  await copyFile(path.join(projectRoot, 'node_modules', '.package-lock.json'), record);
}

/** The files under `folder` modified after `marker`, but vitest's own results (this very run writes them). */
async function changedSince(folder: string, marker: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'find',
    [folder, '-path', path.join(folder, '.vite', 'vitest'), '-prune', '-o', '-type', 'f', '-newer', marker, '-print'],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return stdout.split('\n').filter(Boolean);
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

let folder = '';
let checkout = '';
let npmPrefix = '';
let recordBefore = '';
/** Made just before the copy: a file of the real node_modules changed after it was written through a hard link. */
let copiedAt = '';
const groups: number[] = [];

/** Ends the session's processes and the `serves` jobs it started in their own groups. */
async function endProcesses(): Promise<void> {
  const jobs = (await readFile(path.join(folder, 'groups'), 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  for (const group of [...groups.splice(0), ...jobs]) await groupGone(group);
  await writeFile(path.join(folder, 'groups'), '');
}

/** Runs a file's blocks in one bash session in a new home folder; resolves with its status and output. */
async function runSession(file: string, blocks: CommandBlock[], cwd: string, home: string): Promise<{ status: number | null; output: string }> {
  await mkdir(home, { recursive: true });
  const { MLSO_BASE_URL: _url, MLSO_USERNAME: _user, MLSO_STATE_DIR: _state, npm_config_prefix: _prefix, ...inherited } = process.env;
  const nodeFolder = path.dirname(process.execPath);
  const env = {
    ...inherited,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    npm_config_prefix: npmPrefix,
    PATH: [path.join(npmPrefix, 'bin'), nodeFolder, process.env.PATH].join(path.delimiter),
    READMETEST_FOLDER: folder,
    READMETEST_SERVE_DEADLINE_S: String(SERVE_DEADLINE_S),
    READMETEST_CRON_BIN: [path.join(npmPrefix, 'bin'), nodeFolder].join(path.delimiter),
  };
  const steps = blocks.flatMap((block) => {
    const where = `README_LINE=${block.line}`;
    if (block.kind === 'serves') {
      return [
        where,
        ...block.script
          .split('\n')
          .filter((line) => withoutComment(line) !== '')
          .map((line) => `readme_serves ${shellWord(line)}`),
      ];
    }
    if (block.kind === 'crontab') return [where, `readme_crontab ${shellWord(block.script)}`];
    if (block.kind === 'ci') return [];
    return [where, block.script];
  });
  const script = [
    'set -eo pipefail',
    `trap 'echo "${file}: the block at line $README_LINE failed with status $?" >&2' ERR`,
    `source ${shellWord(SESSION_HELPERS)}`,
    ...steps,
  ].join('\n');
  const shell = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.push(shell.pid!);
  let output = '';
  shell.on('error', (error) => (output += `could not start bash: ${error.message}\n`));
  for (const stream of [shell.stdout, shell.stderr]) {
    stream.on('error', () => undefined);
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  }
  const status = await new Promise<number | null>((resolve) => shell.once('exit', (code) => resolve(code)));
  return { status, output };
}

/** The ports a file's blocks ask for by number, which must be free before its session starts. */
function fixedPorts(blocks: CommandBlock[]): number[] {
  return [...new Set(blocks.flatMap((block) => [...block.script.matchAll(/--port[ =](\d+)/g)].map((match) => Number(match[1]))))];
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'readme-'));
  checkout = path.join(folder, 'checkout');
  npmPrefix = path.join(folder, 'npm-prefix');
  recordBefore = await sha256(path.join(projectRoot, 'node_modules', '.package-lock.json'));
  copiedAt = path.join(folder, 'copied-at');
  await writeFile(copiedAt, '');
  await throwawayCheckout(checkout);
}, 120_000);

afterAll(async () => {
  await endProcesses();
  // The servers write Node's compile cache under the temporary homes as they exit: remove the folder once they are gone.
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the README and the guide', async () => {
  const files = await documentedFiles();
  let installed = false;

  it.each(files)(
    '%s: runs every command block verbatim',
    async (file) => {
      const others: string[] = [];
      const blocks = commandBlocks(await readFile(path.join(projectRoot, file), 'utf8'), file, others);
      const counts = KINDS.map((kind) => `${blocks.filter((block) => block.kind === kind).length} ${kind}`).join(', ');
      console.log(`${file}: ${blocks.length} command blocks (${counts}); not commands, not run: ${others.join(', ') || 'none'}`);
      if (file !== 'README.md') expect(installed, 'the README installs the mlso-dl the guide runs: its session failed').toBe(true);
      for (const port of [DEMO_PORT, ...fixedPorts(blocks)]) {
        expect(await portIsFree(port), `port ${port}, which ${file} starts a server on, is in use: stop what holds it`).toBe(true);
      }

      const home = path.join(folder, 'homes', file.replaceAll('/', '_'));
      const { status, output } = await runSession(file, blocks, file === 'README.md' ? checkout : home, home);
      await endProcesses();
      expect(status, output.split('\n').slice(-60).join('\n')).toBe(0);
      for (const served of output.split('\n').filter((text) => text.startsWith('served: '))) console.log(`${file}: ${served}`);

      for (const block of blocks.filter((each) => each.kind === 'crontab')) {
        // The mirror's own log: the night's line says exit 0, and the JSON it kept parses.
        const logs = path.join(home, 'mlso-logs');
        const lastNight = (await readFile(path.join(logs, 'status.log'), 'utf8')).trim().split('\n').at(-1);
        expect(lastNight, `${file} line ${block.line}: status.log`).toMatch(/ exit 0$/);
        const kept = (await readdir(logs)).filter((name) => name.endsWith('.json'));
        expect(kept, `${file} line ${block.line}: the JSON the cron job keeps`).toHaveLength(1);
        const night = await readFile(path.join(logs, kept[0]!), 'utf8');
        expect(() => JSON.parse(night) as unknown, night).not.toThrow();
      }
      for (const block of blocks.filter((each) => each.kind === 'ci')) {
        const { stdout } = await promisify(execFile)('bash', [path.join(projectRoot, '.ci', 'run'), '--print-test-command'], { cwd: projectRoot });
        expect(stdout.trim(), `.ci/run runs ${file} line ${block.line}'s command`).toBe(withoutComment(block.script));
        const ciRun = await readFile(path.join(projectRoot, '.ci', 'run'), 'utf8');
        expect(ciRun, '.ci/run runs the command it prints, and no test command of its own').toMatch(
          /^test_command="\$\(readme_test_command\)"$[\s\S]*^eval "\$test_command"$/m,
        );
        expect(ciRun).not.toMatch(/^npm (run )?test\b/m);
      }
      if (file === 'README.md') {
        expect(existsSync(path.join(npmPrefix, 'bin', 'mlso-dl')), 'npm link put mlso-dl in the npm prefix').toBe(true);
        expect(await sha256(path.join(projectRoot, 'node_modules', '.package-lock.json')), 'npm wrote into the real node_modules').toBe(recordBefore);
        expect(await changedSince(path.join(projectRoot, 'node_modules'), copiedAt), 'files of the real node_modules written through a link').toEqual([]);
        installed = true;
      }
    },
    900_000,
  );
});
