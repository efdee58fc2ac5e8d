// The output of the commands that work on local files or dates alone (quicklook, header, cr): the same CliOutput
// as every command, but made without the client (cli-context.ts imports it), so they load nothing of it.
import type { CliIo } from '../cli-context';
import type { GlobalOptions } from '../global-options';
import { CliOutput } from '../output/cli-output';

export function localOutput(options: GlobalOptions, io: CliIo): CliOutput {
  return new CliOutput({
    quiet: Boolean(options.quiet),
    verbose: Boolean(options.verbose),
    ...(io.stdout ? { stdout: io.stdout } : {}),
    ...(io.stderr ? { stderr: io.stderr } : {}),
  });
}
