// A run of mlso-dl parses one command at most, and `--version` none: each command is registered with its name and
// description, and its options, arguments and action are added when commander reaches it. So a start runs, and V8
// compiles, the definition of the command it runs, not those of all the others.
import { Help, type Command } from 'commander';

const definitions = new WeakMap<Command, (command: Command) => void>();

/** Adds the command `name` under `parent`; `define` adds the rest of it when it is first needed. */
export function addCommandOnDemand(parent: Command, name: string, description: string, define: (command: Command) => void): void {
  definitions.set(parent.command(name).description(description), define);
}

/** Defines `command` in full if it is not yet; returns it. */
export function defineInFull(command: Command): Command {
  const define = definitions.get(command);
  if (define) {
    definitions.delete(command);
    define(command);
  }
  return command;
}

/**
 * Has commander define a command in full where it needs more than its name and description: before the command parses
 * its arguments, and before a help that shows it (its own, and its parent's list of commands, with their usage).
 * Whatever else reads a command's options first defines it (option-prefixes.ts).
 */
export function defineWhenReached(program: Command): void {
  program.hook('preSubcommand', (_program, command) => void defineInFull(command));
  program.configureHelp({
    formatHelp(this: Help, command, helper) {
      defineInFull(command);
      for (const subcommand of command.commands) defineInFull(subcommand);
      return Help.prototype.formatHelp.call(this, command, helper);
    },
  });
}
