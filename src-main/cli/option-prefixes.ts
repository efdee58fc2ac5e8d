// Python's argparse, and so the official `mlsoapi`, accepts any unambiguous prefix of a long option
// (`--carr 2295`, `--down --user E`). Commander does not: this pass over the arguments, made before commander
// parses them, writes each such prefix out in full. It reads the options from the commander program itself,
// global ones before the command and the command's own after it, so a new option is covered without a list here.
import type { Command, Option } from 'commander';
import { defineInFull } from './commands-on-demand';

export interface PreparedArguments {
  /** The arguments with every unambiguous prefix written out; anything this pass does not understand is left as typed. */
  args: string[];
  /**
   * True when the arguments hold global options only (or nothing): no command, and nothing for commander to refuse.
   * mlsoapi then prints its help and exits 0.
   */
  commandMissing: boolean;
}

/**
 * Expands prefixes of long options, in `--name` and `--name=value` forms. A prefix that could mean several
 * options is refused through commander's own error path (its message names them, as argparse's does); an
 * unknown option or command ends the pass, for commander to refuse with its usual message.
 */
export function expandOptionPrefixes(program: Command, argv: readonly string[]): PreparedArguments {
  const args: string[] = [];
  let command = program;
  let index = 0;
  const keepRest = (): PreparedArguments => ({ args: args.concat(argv.slice(index)), commandMissing: false });

  while (index < argv.length) {
    const arg = argv[index]!;
    if (arg === '--') return keepRest();
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const typed = equals === -1 ? arg : arg.slice(0, equals);
      const option = longOption(command, typed);
      if (!option) return keepRest();
      args.push(equals === -1 ? option.long! : `${option.long!}${arg.slice(equals)}`);
      index += 1;
      if (equals !== -1 || !takesNextAsValue(option, argv[index])) continue;
    } else if (arg.startsWith('-') && arg.length > 1) {
      const cluster = shortCluster(command, arg);
      if (cluster === 'unknown') return keepRest();
      args.push(arg);
      index += 1;
      if (!cluster || !takesNextAsValue(cluster, argv[index])) continue;
    } else {
      // An operand: at the top level it names the command whose options follow; anything else is not ours to read.
      const subcommand = command === program ? findCommand(program, arg) : undefined;
      if (!subcommand) return keepRest();
      command = subcommand;
      args.push(arg);
      index += 1;
      continue;
    }
    // The option's value, taken as it is (it may itself start with a dash).
    if (index >= argv.length) return { args, commandMissing: false };
    args.push(argv[index]!);
    index += 1;
  }
  return { args, commandMissing: command === program };
}

/** Every option `command` parses, hidden ones and its help option included. */
function optionsOf(command: Command): readonly Option[] {
  const all = new Map<string, Option>();
  for (const option of [...command.options, ...command.createHelp().visibleOptions(command)]) {
    all.set(option.long ?? option.short ?? option.flags, option);
  }
  return [...all.values()];
}

/** The long option `typed` means: itself, or the one option it is the start of; undefined when none. */
function longOption(command: Command, typed: string): Option | undefined {
  const options = optionsOf(command).filter((option) => option.long !== undefined);
  const exact = options.find((option) => option.long === typed);
  if (exact) return exact;
  const candidates = options.filter((option) => option.long!.startsWith(typed));
  if (candidates.length > 1) {
    const names = candidates.map((option) => option.long!).join(', ');
    command.error(`error: ambiguous option '${typed}' could match ${names}`, { code: 'mlso-dl.ambiguousOption', exitCode: 2 });
  }
  return candidates[0];
}

/**
 * The option of a cluster of short flags (`-q`, `-dq`, `-ukcor`) that takes the next argument as its value, null
 * when none does, or 'unknown' when a letter is not an option of `command`.
 */
function shortCluster(command: Command, arg: string): Option | null | 'unknown' {
  const options = optionsOf(command);
  for (let position = 1; position < arg.length; position += 1) {
    const option = options.find((candidate) => candidate.short === `-${arg[position]}`);
    if (!option) return 'unknown';
    // A flag with a value takes the rest of the cluster as that value, or else the next argument.
    if (option.required || option.optional) return position === arg.length - 1 ? option : null;
  }
  return null;
}

/** Whether commander takes the argument after `option` as its value: always for `<value>`, unless it looks like an option for `[value]`. */
function takesNextAsValue(option: Option, next: string | undefined): boolean {
  if (option.required) return true;
  return option.optional && next !== undefined && !next.startsWith('-');
}

/** The command `name` names, defined in full: its options are what is read next. */
function findCommand(program: Command, name: string): Command | undefined {
  const command = program.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
  return command && defineInFull(command);
}
