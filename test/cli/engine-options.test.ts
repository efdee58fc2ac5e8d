// The command line's download options come from one place (engine-options.ts) with the app's bounds and defaults
// (the settings table): `files --download` and `campaign sync` take the same options, parse them alike, and refuse
// --concurrency and --retries outside the range the app's settings rules allow, with the same numbers.
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src-main/cli/program';
import { SETTING_DEFINITIONS } from '../../src-shared/settings/setting-definitions';
import { runBuiltCli } from '../helpers/built-cli';
import { Capture } from '../helpers/fixtures';

/** A command by its path, e.g. ['campaign', 'sync']. */
function commandAt(program: Command, names: readonly string[]): Command {
  return names.reduce((command, name) => command.commands.find((child) => child.name() === name)!, program);
}

/** What the command line says (exit status 2 and its one line) when `args` are parsed. */
async function refusal(args: readonly string[]): Promise<string> {
  const stderr = new Capture();
  const { program } = buildProgram({ stdout: new Capture(), stderr });
  const action = (): void => {
    throw new Error(`${args.join(' ')} was accepted`);
  };
  for (const path of [['files'], ['campaign', 'sync']]) commandAt(program, path).action(action);
  await expect(program.parseAsync(args, { from: 'user' })).rejects.toThrow();
  return stderr.text.split('\n')[0]!;
}

const FILES = ['files', '-i', 'kcor', '-p', 'pb', '-d', '-u', 'someone@example.com'];
const SYNC = ['campaign', 'sync', 'some', '-u', 'someone@example.com'];

describe('the command line takes the settings bounds', () => {
  it.each([
    ['files --download', FILES],
    ['campaign sync', SYNC],
  ])('%s refuses --concurrency and --retries outside the same bounds as the app', async (_command, args) => {
    const { concurrency, retries } = SETTING_DEFINITIONS;
    const sentence = (range: { min: number; max: number }): string => `Use a whole number from ${range.min} to ${range.max}.`;
    expect(await refusal([...args, '--concurrency', String(concurrency.range.max + 1)])).toContain(sentence(concurrency.range));
    expect(await refusal([...args, '--concurrency', String(concurrency.range.min - 1)])).toContain(sentence(concurrency.range));
    expect(await refusal([...args, '--retries', String(retries.range.max + 1)])).toContain(sentence(retries.range));
  });
});

describe('the engine options of files --download and campaign sync', () => {
  const ENGINE_FLAGS = ['--concurrency', '--retries', '--retry-delay', '--allow-other-hosts'];

  function engineOptions(path: readonly string[]): Record<string, Pick<Option, 'description' | 'defaultValue' | 'flags'>> {
    const { program } = buildProgram({ stdout: new Capture(), stderr: new Capture() });
    const options = commandAt(program, path).options.filter((option) => ENGINE_FLAGS.includes(option.long ?? ''));
    return Object.fromEntries(
      options.map((option) => [option.long, { flags: option.flags, description: option.description, defaultValue: option.defaultValue }]),
    );
  }

  it('are the same options, with the same descriptions and defaults, which are the settings defaults', () => {
    const files = engineOptions(['files']);
    expect(Object.keys(files).sort()).toEqual([...ENGINE_FLAGS].sort());
    expect(engineOptions(['campaign', 'sync'])).toEqual(files);
    expect(files['--concurrency']!.defaultValue).toBe(SETTING_DEFINITIONS.concurrency.default);
    expect(files['--retries']!.defaultValue).toBe(SETTING_DEFINITIONS.retries.default);
  });

  it('parse the same values the same way', async () => {
    const parsed: Record<string, unknown>[] = [];
    const { program } = buildProgram({ stdout: new Capture(), stderr: new Capture() });
    for (const path of [['files'], ['campaign', 'sync']])
      commandAt(program, path).action((...args: unknown[]) => void parsed.push(args.at(-2) as Record<string, unknown>));
    const typed = ['--concurrency', '7', '--retries', '9', '--retry-delay', '250ms', '--allow-other-hosts'];
    await program.parseAsync([...FILES, ...typed], { from: 'user' });
    const second = buildProgram({ stdout: new Capture(), stderr: new Capture() }).program;
    for (const path of [['files'], ['campaign', 'sync']])
      commandAt(second, path).action((...args: unknown[]) => void parsed.push(args.at(-2) as Record<string, unknown>));
    await second.parseAsync([...SYNC, ...typed], { from: 'user' });
    const engine = (options: Record<string, unknown>) => ({
      concurrency: options['concurrency'],
      retries: options['retries'],
      retryDelay: options['retryDelay'],
      allowOtherHosts: options['allowOtherHosts'],
    });
    expect(parsed).toHaveLength(2);
    expect(engine(parsed[0]!)).toEqual({ concurrency: 7, retries: 9, retryDelay: 0.25, allowOtherHosts: true });
    expect(engine(parsed[1]!)).toEqual(engine(parsed[0]!));
  });
});

describe('mlso-dl through a real pipe', () => {
  it('refuses --retries above the range the app allows, in one line with exit status 2', async () => {
    const { retries } = SETTING_DEFINITIONS;
    const run = await runBuiltCli(['files', '-i', 'kcor', '-p', 'pb', '-d', '-u', 'someone@example.com', '--retries', String(retries.range.max + 1)]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `option '--retries <n>' argument '${retries.range.max + 1}' is invalid. Use a whole number from ${retries.range.min} to ${retries.range.max}.`,
    );
  });
});
