// Downloads a listing's files into a folder, one after another, through the one-file primitive:
// files already complete there are skipped, failures are collected and reported at the end.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { humanSize } from '../../../src-shared/format/human-size';
import { downloadFile } from '../../core/download/download-file';
import { isCompleteFitsFile } from '../../core/download/fits-completeness';
import { removeStaleTemporaryFiles } from '../../core/download/temporary-files';
import { CancelledError, DownloadError, MlsoError, SessionError } from '../../core/errors';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import { printJson, type CliContext } from '../cli-context';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from '../exit-codes';

export interface DownloadListingOptions {
  username: string;
  outputDir: string;
  json: boolean;
}

interface Outcome {
  downloaded: { filename: string; bytes: number; sha256: string }[];
  skipped: string[];
  failed: { filename: string; reason: string }[];
}

export async function downloadListing(context: CliContext, files: readonly FileEntry[], options: DownloadListingOptions): Promise<number> {
  const { client, out } = context;
  const folder = path.resolve(options.outputDir);
  await mkdir(folder, { recursive: true });
  await removeStaleTemporaryFiles(folder);
  const message = await client.authenticate(options.username, { signal: context.signal });
  out.detail(message);

  const outcome: Outcome = { downloaded: [], skipped: [], failed: [] };
  const bar = out.interactive && files.length > 0 ? startBar(out.stderr, files.length) : undefined;
  let reauthenticated = false;
  try {
    for (const [index, file] of files.entries()) {
      if (context.signal?.aborted) throw new CancelledError('The download');
      const safe = checkSafeFilename(file.filename);
      if (!safe.ok) {
        outcome.failed.push({ filename: file.filename, reason: `unsafe file name: ${safe.reason}` });
        continue;
      }
      if (await isCompleteFitsFile(path.join(folder, file.filename))) {
        outcome.skipped.push(file.filename);
        bar?.update(index + 1, { file: file.filename });
        continue;
      }
      for (;;) {
        try {
          const result = await downloadFile(client.openDownload.bind(client), { url: file.url, filename: file.filename, folder }, {
            signal: context.signal,
            onProgress: (p) => bar?.update(index, { file: file.filename, bytes: humanSize(p.bytesWritten) }),
          });
          outcome.downloaded.push({ filename: file.filename, bytes: result.bytesWritten, sha256: result.sha256 });
          if (!bar) out.info(`[${index + 1}/${files.length}] ${file.filename} ${humanSize(result.bytesWritten)}`);
          break;
        } catch (error) {
          if (error instanceof CancelledError) throw error;
          // A session that ran out mid-list is renewed once, then the file is tried again.
          const sessionTrouble = error instanceof SessionError || (error instanceof DownloadError && error.reason === 'error-body');
          if (sessionTrouble && !reauthenticated) {
            reauthenticated = true;
            await client.authenticate(options.username, { signal: context.signal });
            continue;
          }
          outcome.failed.push({ filename: file.filename, reason: error instanceof MlsoError ? error.message : String(error) });
          if (!bar) out.error(`[${index + 1}/${files.length}] ${file.filename} failed: ${outcome.failed.at(-1)!.reason}`);
          break;
        }
      }
      bar?.update(index + 1, { file: file.filename });
    }
  } catch (error) {
    bar?.stop();
    if (error instanceof CancelledError) {
      out.error(`Interrupted: ${outcome.downloaded.length} downloaded, ${files.length - outcome.downloaded.length - outcome.skipped.length} not downloaded. Run the same command again to continue.`);
      return EXIT_INTERRUPTED;
    }
    throw error;
  }
  bar?.stop();
  report(context, outcome, folder, options.json);
  return outcome.failed.length > 0 ? EXIT_FAILURE : EXIT_OK;
}

function startBar(stream: NodeJS.WritableStream, total: number): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: '{bar} {value}/{total} files | {bytes} | {file}',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { file: '', bytes: '' });
  return bar;
}

function report(context: CliContext, outcome: Outcome, folder: string, json: boolean): void {
  const { out } = context;
  if (json) {
    printJson(out, { folder, ...outcome });
    return;
  }
  const bytes = outcome.downloaded.reduce((sum, file) => sum + file.bytes, 0);
  out.info(
    `Downloaded ${outcome.downloaded.length} ${outcome.downloaded.length === 1 ? 'file' : 'files'} (${humanSize(bytes)}) into ${folder}; ` +
      `skipped ${outcome.skipped.length} already complete; ${outcome.failed.length} failed.`,
  );
  for (const failure of outcome.failed) out.error(`failed: ${failure.filename}: ${failure.reason}`);
}
