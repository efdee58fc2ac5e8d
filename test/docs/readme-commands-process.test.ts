// The README is followed verbatim by newcomers: every sh, bash and console block runs here, in order, in one
// bash session (a block's `cd` and `export` hold for the next, as in a terminal), in a temporary home folder,
// with the built mlso-dl on PATH as `npm link` puts it there. The walk-through starts the demo server itself.
// A block that cannot run here says why in a `<!-- readme-test: skip (REASON) -->` line right above it.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const projectRoot = path.resolve(import.meta.dirname, '../..');
/** The port the README's walk-through starts the demo server on (not 5000, which mlsoapi-parity's --local tests take). */
const DEMO_PORT = 5055;
const SKIP_MARK = /^<!-- readme-test: skip \((.+)\) -->$/;

interface CommandBlock {
  /** The line of the README the block's opening fence is on, counted from 1. */
  line: number;
  /** The commands, as a shell reads them. */
  script: string;
  /** Why the block is not run here, when the README says so. */
  skipReason?: string;
}

/** The README's command blocks: fenced as sh, bash or console (whose commands are the lines after `$ `). */
function commandBlocks(markdown: string): CommandBlock[] {
  const lines = markdown.split('\n');
  const blocks: CommandBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const language = /^```(sh|bash|console)\s*$/.exec(lines[index]!)?.[1];
    if (language === undefined) continue;
    const skipReason = SKIP_MARK.exec(lines[index - 1]?.trim() ?? '')?.[1];
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !lines[end]!.startsWith('```'); end += 1) body.push(lines[end]!);
    const commands = language === 'console' ? body.filter((text) => text.startsWith('$ ')).map((text) => text.slice(2)) : body;
    blocks.push({ line: index + 1, script: commands.join('\n'), ...(skipReason === undefined ? {} : { skipReason }) });
    index = end;
  }
  return blocks;
}

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
  const killAt = Date.now() + 10_000;
  while (signalGroup(group, 0) && Date.now() < killAt + 5_000) {
    if (Date.now() > killAt) signalGroup(group, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let folder = '';
let sessionGroup: number | undefined;
afterEach(async () => {
  // The demo server the walk-through leaves running in the background, or a session stopped by the timeout.
  if (sessionGroup !== undefined) {
    signalGroup(sessionGroup, 'SIGTERM');
    // The server writes Node's compile cache under the temporary HOME as it exits: remove the folder once it is gone.
    await groupGone(sessionGroup);
  }
  sessionGroup = undefined;
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('README', () => {
  it('runs every command block verbatim against the demo server it starts', async () => {
    const blocks = commandBlocks(await readFile(path.join(projectRoot, 'README.md'), 'utf8'));
    const skipped = blocks.filter((block) => block.skipReason !== undefined);
    const run = blocks.filter((block) => block.skipReason === undefined);
    console.log(
      `README: ${run.length} command blocks run, ${skipped.length} not run:\n` + skipped.map((block) => `  line ${block.line}: ${block.skipReason}`).join('\n'),
    );
    expect(await portIsFree(DEMO_PORT), `port ${DEMO_PORT}, which the walk-through's demo server takes, is in use`).toBe(true);

    folder = await mkdtemp(path.join(tmpdir(), 'readme-'));
    const home = path.join(folder, 'home');
    const linked = path.join(folder, 'bin');
    await mkdir(home, { recursive: true });
    await mkdir(linked);
    await symlink(path.join(projectRoot, 'bin', 'mlso-dl.js'), path.join(linked, 'mlso-dl'));
    const { MLSO_BASE_URL: _url, MLSO_USERNAME: _user, MLSO_STATE_DIR: _state, ...inherited } = process.env;
    const env = {
      ...inherited,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      PATH: [linked, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
    };
    const script = [
      'set -eo pipefail',
      `trap 'echo "README block at line $README_LINE failed with status $?" >&2' ERR`,
      ...run.flatMap((block) => [`README_LINE=${block.line}`, block.script]),
    ].join('\n');

    const shell = spawn('bash', ['-c', script], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    sessionGroup = shell.pid;
    let output = '';
    shell.on('error', () => undefined);
    for (const stream of [shell.stdout, shell.stderr]) {
      stream.on('error', () => undefined);
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    }
    const status = await new Promise<number | null>((resolve) => shell.once('exit', (code) => resolve(code)));
    expect(status, output.split('\n').slice(-40).join('\n')).toBe(0);
  }, 240_000);
});
