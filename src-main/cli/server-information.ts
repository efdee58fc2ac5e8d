// --verbose begins as mlsoapi's does, with the server's own information (its `about`): which version answers
// and where its documentation is, before the command's own requests. One small request, made only with --verbose.
import type { CliContext } from './cli-context';
import { CLIENT_VERSION } from './version';

export async function printServerInformation(context: CliContext): Promise<void> {
  if (!context.out.verbose) return;
  try {
    const about = await context.client.about({ signal: context.signal });
    context.out.detail(`server version: ${about.version}, client version: ${CLIENT_VERSION}`);
    context.out.detail(`documentation: ${about.documentation}`);
  } catch (error) {
    // The command's own request meets the same problem and reports it in full: here it is only a note.
    context.out.detail(`server information unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
}
