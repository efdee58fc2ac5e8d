// `web`: the desktop app in a browser. Serves the renderer and the app contract on 127.0.0.1 and prints
// the address to open (with its one-time token) on a line of its own; runs until Ctrl-C.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Settings } from '../../../src-shared/settings/settings-types';
import { defaultStateFolder } from '../../core/state/state-folder';
import { startWebApp } from '../../web/web-app';
import type { CliContext } from '../cli-context';
import { EXIT_OK } from '../exit-codes';
import { CLIENT_VERSION } from '../version';
import { startListening } from './listen-problem';

export interface WebOptions {
  port: number;
  outputDir?: string;
  stateDir?: string;
  demo?: boolean;
}

/** The renderer's build sits beside the bundled command line: dist/cli/mlso-dl.js and dist/renderer/. */
function rendererFolder(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
}

export async function webCommand(context: CliContext, options: WebOptions, server: Partial<Settings>): Promise<number> {
  // Web mode listens on loopback only (web-server.ts).
  const app = await startListening({ host: '127.0.0.1', port: options.port }, () =>
    startWebApp({
      port: options.port,
      stateFolder: options.stateDir ?? defaultStateFolder(),
      rendererFolder: rendererFolder(),
      version: CLIENT_VERSION,
      ...(options.outputDir ? { downloadFolder: options.outputDir } : {}),
      server: { ...server, ...(options.demo ? { useDemoServer: true } : {}) },
    }),
  );
  context.out.result(`Open ${app.server.openUrl}`);
  context.out.info('MLSO Downloader is running in web mode on this computer only (127.0.0.1). Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (context.signal?.aborted) resolve();
    context.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await app.close();
  return EXIT_OK;
}
