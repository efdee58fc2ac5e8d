// The command line's filter options come from the shared filter table: every filter in it is an option of `files`
// (and of any other command that takes filters), shown in the help with its flags, and every form of it that
// commander parses reaches the files request as that filter.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addFilterOptions, filtersFrom, type FilterOptions } from '../../src-main/cli/filter-options';
import { buildProgram } from '../../src-main/cli/program';
import { runCli } from '../../src-main/cli/run-cli';
import type { FilterName } from '../../src-shared/filters/filter-rules';
import { FILTER_DEFINITIONS, FILTER_NAMES, type FilterDefinition } from '../../src-shared/filters/filter-table';
import { Capture, cliAgainst, useEmulator } from '../helpers/fixtures';

/** A value each filter's rule accepts, as the service gets it back. */
const SAMPLES: Record<FilterName, string> = {
  'start-date': '2025-03-24',
  'end-date': '2025-03-25',
  cr: '2295',
  every: '1hour',
  'wave-region': '1074',
  'obs-plan': 'waves',
};

/** Every way a filter can be typed: its short flag, its long flag, its hidden aliases. */
function flagsOf(filter: FilterDefinition): string[] {
  const { short, long, hiddenAliases = [] } = filter.option;
  return [...(short ? [`-${short}`] : []), `--${long}`, ...hiddenAliases.map((alias) => `--${alias}`)];
}

const everyForm = FILTER_DEFINITIONS.flatMap((filter) => flagsOf(filter).map((flag) => ({ name: filter.name, flag })));

function filesCommandOf(program: Command): Command {
  return program.commands.find((command) => command.name() === 'files')!;
}

/** A command's subcommands, theirs, and so on (`campaign create` sits under `campaign`). */
function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

/** The options the real `files` command parses from these arguments, its action replaced so nothing is fetched. */
async function parsedFilesOptions(args: readonly string[]): Promise<FilterOptions> {
  const { program } = buildProgram({ stdout: new Capture(), stderr: new Capture() });
  let parsed: FilterOptions | undefined;
  filesCommandOf(program).action((options: FilterOptions) => {
    parsed = options;
  });
  await program.parseAsync(['files', '-i', 'ucomp', '-p', 'l2', ...args], { from: 'user' });
  return parsed!;
}

describe('files --help', () => {
  it('shows every filter of the table with its flags and description, hidden aliases only named', async () => {
    const stdout = new Capture();
    expect(await runCli(['files', '--help'], { stdout, stderr: new Capture() })).toBe(0);
    const help = stdout.text.replace(/\n {2,}/g, ' ');
    for (const filter of FILTER_DEFINITIONS) {
      const { short, long, value, description, hiddenAliases = [] } = filter.option;
      expect(help).toContain(`${short ? `-${short}, ` : ''}--${long} <${value}>`);
      expect(help).toContain(description);
      for (const alias of hiddenAliases) {
        expect(help).toContain(`(also --${alias})`);
        expect(help).not.toMatch(new RegExp(`^\\s*--${alias} <`, 'm'));
      }
    }
  });

  it('lists the filters in the order of mlsoapi, after the instrument and product', async () => {
    const stdout = new Capture();
    await runCli(['files', '--help'], { stdout, stderr: new Capture() });
    const flags = [...stdout.text.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((match) => match[1]);
    expect(flags.slice(0, 8)).toEqual([
      '--instrument',
      '--product',
      '--wave-region',
      '--obs-plan',
      '--start-date',
      '--end-date',
      '--carrington-rotation',
      '--every',
    ]);
  });
});

describe('filtersFrom', () => {
  it.each(everyForm)('files $flag reaches the request as the $name filter', async ({ name, flag }) => {
    const options = await parsedFilesOptions([flag, SAMPLES[name]]);
    const filters = filtersFrom(options);
    expect(Object.keys(filters).sort()).toEqual([...FILTER_NAMES].sort());
    expect(Object.entries(filters).filter(([, value]) => value !== undefined)).toEqual([[name, SAMPLES[name]]]);
  });

  it('prefers the shown flag when a hidden alias is typed too, as mlso-dl always has', async () => {
    expect(filtersFrom(await parsedFilesOptions(['--cr', '1', '-c', '2'])).cr).toBe('2');
    expect(filtersFrom(await parsedFilesOptions(['-c', '2', '--cr', '1'])).cr).toBe('2');
  });

  it('reads any command given the filter options, not only files', () => {
    const command = addFilterOptions(new Command('campaign-add').exitOverride());
    command.parse(
      FILTER_DEFINITIONS.flatMap((filter) => [`--${filter.option.long}`, SAMPLES[filter.name]]),
      { from: 'user' },
    );
    expect(filtersFrom(command.opts<FilterOptions>())).toEqual(SAMPLES);
  });
});

describe('every command that takes filters', () => {
  it('takes all of them, with the same flags as files', () => {
    const { program } = buildProgram({ stdout: new Capture(), stderr: new Capture() });
    const filterFlags = new Set(everyForm.map(({ flag }) => flag).filter((flag) => flag.startsWith('--')));
    const takers = allCommands(program).filter((command) => command.options.some((option) => option.long && filterFlags.has(option.long)));
    expect(takers.map((command) => command.name())).toContain('files');
    for (const command of takers) {
      const longs = command.options.map((option) => option.long);
      for (const flag of filterFlags) expect(longs, `${command.name()} lacks ${flag}`).toContain(flag);
    }
  });
});

describe('files with every filter of the table, against the emulator', () => {
  const emulator = useEmulator();
  const cli = cliAgainst(emulator);

  it('sends each one as its query parameter', async () => {
    const args = FILTER_DEFINITIONS.flatMap((filter) => [`--${filter.option.long}`, SAMPLES[filter.name]]);
    const run = await cli('--verbose', 'files', '-i', 'ucomp', '-p', 'l2', ...args);
    expect(run.status, run.stderr).toBe(0);
    const url = /^GET (\S+\/files\/?\?\S*)$/m.exec(run.stderr)?.[1];
    expect(url).toBeDefined();
    const query = Object.fromEntries(new URL(url!).searchParams);
    delete query['client'];
    expect(query).toEqual(SAMPLES);
  });
});
