// `mlso-dl files --download` of one emulator listing, run as the real executable: for tests of what one
// run leaves in the state folder for the next.
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { runBuiltCli, startUnreaped, type FinishedRun } from '../../helpers/built-cli';

export interface DownloadRun {
  baseUrl: string;
  window: { 'start-date': string; 'end-date': string };
  folder: string;
  stateFolder: string;
}

/** The arguments of `mlso-dl files --download` of the run's KCor pB window, then `extra` options. */
export function downloadArgs(run: DownloadRun, ...extra: string[]): string[] {
  return [
    '--base-url',
    run.baseUrl,
    'files',
    '-i',
    'kcor',
    '-p',
    'pb',
    '-s',
    run.window['start-date'],
    '-e',
    run.window['end-date'],
    '--download',
    '-u',
    DEMO_EMAIL,
    '-o',
    run.folder,
    '--state-dir',
    run.stateFolder,
    ...extra,
  ];
}

/** Runs a download to its end; resolves with the exit status and what was written. */
export function runDownload(run: DownloadRun): Promise<FinishedRun> {
  return runBuiltCli(downloadArgs(run));
}

/** Starts a download whose parent never reaps it (see startUnreaped); resolves with its pid. */
export function startUnreapedDownload(run: DownloadRun): ReturnType<typeof startUnreaped> {
  return startUnreaped(downloadArgs(run));
}
