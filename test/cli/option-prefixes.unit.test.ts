// The pass that writes out abbreviated long options (as Python's argparse accepts them) before commander parses,
// on mlso-dl's real program definition.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { expandOptionPrefixes } from '../../src-main/cli/option-prefixes';
import { buildProgram } from '../../src-main/cli/program';
import { Capture } from '../helpers/fixtures';

function program() {
  const stderr = new Capture();
  return { program: buildProgram({ stdout: new Capture(), stderr }).program, stderr };
}

const expand = (...argv: string[]) => expandOptionPrefixes(program().program, argv);

describe('expandOptionPrefixes', () => {
  it.each([
    [
      ['files', '--carr', '2295', '--ev', '1day'],
      ['files', '--carrington-rotation', '2295', '--every', '1day'],
    ],
    [
      ['files', '--down', '--user', 'E', '--output', 'D'],
      ['files', '--download', '--username', 'E', '--output-dir', 'D'],
    ],
    [
      ['files', '--carr=2295', '--output=a=b'],
      ['files', '--carrington-rotation=2295', '--output-dir=a=b'],
    ],
    [
      ['--base', 'http://x', '--verb', 'instruments'],
      ['--base-url', 'http://x', '--verbose', 'instruments'],
    ],
    [
      ['mock-server', '--cad', '5'],
      ['mock-server', '--cadence', '5'],
    ],
  ])('%j becomes %j', (argv, expanded) => {
    expect(expand(...argv)).toEqual({ args: expanded, commandMissing: false });
  });

  it('reads each command its own options: global ones before it, its own after it', () => {
    // --base-url is not an option of `files`, and --cadence is mock-server's, not files': both left for commander to refuse.
    expect(expand('files', '--base', 'x').args).toEqual(['files', '--base', 'x']);
    expect(expand('files', '--cad', '5').args).toEqual(['files', '--cad', '5']);
  });

  it('keeps an exact name even when it starts another (--cr) and never touches option values', () => {
    expect(expand('files', '--cr', '2295').args).toEqual(['files', '--cr', '2295']);
    expect(expand('files', '--obs-plan', '--ev', '-s', '--carr', '-u', '--ou').args).toEqual(['files', '--obs-plan', '--ev', '-s', '--carr', '-u', '--ou']);
    expect(expand('-u', '--verb', 'files', '-ukcor', '--ev', '1d').args).toEqual(['-u', '--verb', 'files', '-ukcor', '--every', '1d']);
  });

  it('stops at an unknown option or command, and at --', () => {
    expect(expand('files', '--bogus', '--carr', '1').args).toEqual(['files', '--bogus', '--carr', '1']);
    expect(expand('fils', '--carr', '1').args).toEqual(['fils', '--carr', '1']);
    expect(expand('files', '-x', '--carr', '1').args).toEqual(['files', '-x', '--carr', '1']);
    expect(expand('files', '--', '--carr').args).toEqual(['files', '--', '--carr']);
  });

  it('refuses an ambiguous prefix through commander, naming every option it could mean', () => {
    const { program: built, stderr } = program();
    let thrown: unknown;
    try {
      expandOptionPrefixes(built, ['files', '--c', '1']);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CommanderError);
    expect((thrown as CommanderError).exitCode).toBe(2);
    expect(stderr.text).toBe("error: ambiguous option '--c' could match --carrington-rotation, --cr, --concurrency\n(run with --help for usage)\n");
  });

  it('covers an option added to the program later, with no list to update', () => {
    const built = program().program;
    built.commands.find((command) => command.name() === 'files')!.option('--zebra-stripes <n>', 'a new option');
    expect(expandOptionPrefixes(built, ['files', '--zeb', '3']).args).toEqual(['files', '--zebra-stripes', '3']);
  });

  it.each([
    [[], true],
    [['--local', '-q'], true],
    [['-u', 'http://x'], true],
    [['--version'], true],
    [['-u'], false], // the value is missing: commander says so
    [['--bogus'], false],
    [['help'], false],
    [['instruments'], false],
  ])('%j names no command: %s', (argv, missing) => {
    expect(expand(...argv).commandMissing).toBe(missing);
  });
});
