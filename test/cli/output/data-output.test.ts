// The bytes of a file asked for on standard output (`campaign export --out -`): data into a pipe or a file,
// exactly as made; on a terminal, where only a person reads them, shown as text with control and bidi characters
// escaped and CRLF line ends as plain ones.
import { describe, expect, it } from 'vitest';
import { CliOutput } from '../../../src-main/cli/output/cli-output';
import { Capture } from '../../helpers/fixtures';

const CSV = 'name,plan\r\nevil\u001b]0;owned\u0007.fts,plan\twith \u202etab\r\n';

function output(isTTY: boolean): { out: CliOutput; stdout: Capture } {
  const stdout = Object.assign(new Capture(), { isTTY });
  return { out: new CliOutput({ quiet: false, verbose: false, stdout, stderr: new Capture() }), stdout };
}

describe('data on standard output', () => {
  it('is written exactly into a pipe or a file', async () => {
    const { out, stdout } = output(false);
    await out.data(CSV);
    expect(stdout.text).toBe(CSV);
  });

  it('is shown as text on a terminal: nothing in it drives the terminal', async () => {
    const { out, stdout } = output(true);
    await out.data(CSV);
    expect(stdout.text).toBe('name,plan\nevil\\u001b]0;owned\\u0007.fts,plan\\u0009with \\u202etab\n');
  });
});
