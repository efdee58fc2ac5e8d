// The program a run uses defines each command only when commander reaches it (src-main/cli/commands-on-demand.ts):
// what it prints and parses must be what the program defined in full prints and parses.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { expandOptionPrefixes } from '../../src-main/cli/option-prefixes';
import { buildProgram } from '../../src-main/cli/program';
import { runCli } from '../../src-main/cli/run-cli';
import { Capture } from '../helpers/fixtures';

/** A command's path from the program: ['files'], ['campaign', 'sync'], ... */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((child) => [[...path, child.name()], ...commandPaths(child, [...path, child.name()])]);
}

/** What `args` prints, on stdout then stderr, and its status, with the program defined in full before parsing. */
async function inFull(args: readonly string[]): Promise<string> {
  const stdout = new Capture();
  const stderr = new Capture();
  const { program } = buildProgram({ stdout, stderr }, 'in-full');
  const prepared = expandOptionPrefixes(program, args);
  const status = await program.parseAsync(prepared.args, { from: 'user' }).then(
    () => 0,
    (error: { exitCode?: number }) => error.exitCode,
  );
  return `${stdout.text}${stderr.text}${status}`;
}

/** The same through runCli, whose program defines each command on demand. */
async function onDemand(args: readonly string[]): Promise<string> {
  const stdout = new Capture();
  const stderr = new Capture();
  const status = await runCli(args, { stdout, stderr });
  return `${stdout.text}${stderr.text}${status === 0 ? 0 : 1}`;
}

const everyCommand = commandPaths(buildProgram({ stdout: new Capture(), stderr: new Capture() }, 'in-full').program);

describe('commands defined on demand', () => {
  it('a program on demand starts with every command named and described, none defined further', () => {
    const { program } = buildProgram({ stdout: new Capture(), stderr: new Capture() }, 'on-demand');
    const full = buildProgram({ stdout: new Capture(), stderr: new Capture() }, 'in-full').program;
    expect(program.commands.map((command) => [command.name(), command.description()])).toEqual(
      full.commands.map((command) => [command.name(), command.description()]),
    );
    expect(program.commands.filter((command) => command.options.length > 0 || command.commands.length > 0)).toEqual([]);
    expect(everyCommand.length).toBeGreaterThan(program.commands.length);
  });

  it.each([[['--help']], [['help']], [['--version']], [['campaign', '--help']], [['filez']], [['files', '--inst', 'kcor', '--bogus']], [['--', 'products']]])(
    '%j prints what the program defined in full prints',
    async (args) => {
      const expected = (await inFull(args)).replace(/\d+$/, (status) => (status === '0' ? '0' : '1'));
      expect(await onDemand(args)).toBe(expected);
    },
  );

  it.each(everyCommand.map((path) => [path]))('%j --help, and help for it, print its full help', async (path) => {
    const expected = await inFull([...path, '--help']);
    expect(expected).toContain('Usage: mlso-dl');
    expect(await onDemand([...path, '--help'])).toBe(expected);
    if (path.length === 1) expect(await onDemand(['help', ...path])).toBe(expected);
  });
});
