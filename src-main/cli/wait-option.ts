// --wait, declared once for every command that writes the state folder. Light: loaded at start-up with the program.
import { Option } from 'commander';

export function waitOption(
  description = 'if another MLSO Downloader (the app, web mode, another mlso-dl) is using the state folder, wait for it to finish, then run (Ctrl-C stops waiting)',
): Option {
  return new Option('--wait', description);
}
