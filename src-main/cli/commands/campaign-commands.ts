// The work of `mlso-dl campaign ...`: each subcommand opens the state folder's ledger (where campaigns are kept),
// does its part through the same CampaignService as the app, and prints a line or a table (or JSON).
import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { CampaignCounts, CampaignOverview, CampaignQuery, SyncCounts, SyncReport, VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import type { CampaignExportFormat } from '../../../src-shared/campaigns/campaign-types';
import { filesLeftText, syncSummary, verifyVerdict } from '../../../src-shared/campaigns/count-text';
import { escapeControlCharacters } from '../../../src-shared/format/display-text';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { MAX_CAMPAIGN_FILE_BYTES } from '../../core/campaigns/campaign-file';
import { campaignFileTooLarge } from '../../core/campaigns/campaign-file-reader';
import { CampaignService } from '../../core/campaigns/campaign-service';
import type { LayoutMoves } from '../../core/campaigns/campaign-relayout';
import { InvalidInputError, toErrorData } from '../../core/errors';
import { openDownloadEngine, openStateLedger, readStateLedger, type OpenedEngine, type OpenedLedger } from '../../core/app/open-engine';
import { DEFAULT_BACKOFF } from '../../core/downloads/retry-policy';
import { NotRegularFileError, openRegularFile } from '../../core/files/regular-file';
import { defaultStateFolder } from '../../core/state/state-folder';
import { describeHolder, type StateHolder } from '../../core/state/state-folder-busy';
import type { CliContext } from '../cli-context';
import { reuseByOf } from '../engine-options';
import { printJson } from '../output/cli-output';
import { EXIT_FAILURE, EXIT_OK, UsageError, interruptedExitCode } from '../exit-codes';
import { filtersFrom, type FilterOptions } from '../filter-options';
import { readProblem } from './file-problems';
import { writeWholeFile } from './output-file';
import type { DownloadDisplay } from '../output/download-display';
import { columnsTable } from '../output/tables';
import { whenStateFolderFree } from './state-folder-turn';

export type CampaignSubcommand = 'create' | 'add' | 'list' | 'show' | 'update' | 'remove' | 'sync' | 'verify' | 'export' | 'import';

export interface CampaignCommandOptions extends FilterOptions {
  instrument?: string;
  product?: string;
  outputDir?: string;
  layout?: string;
  autoSync?: number;
  stateDir?: string;
  json?: boolean;
  username?: string;
  concurrency?: number;
  retries?: number;
  retryDelay?: number;
  limitRate?: number | null;
  onExisting?: 'overwrite' | 'skip';
  allowOtherHosts?: boolean;
  link?: boolean;
  format?: CampaignExportFormat;
  out?: string;
  withFiles?: boolean;
  name?: string;
  quick?: boolean;
  /** `campaign sync --all`: every campaign in turn. */
  all?: boolean;
  /** `campaign sync --full`: every window listed again, settled or not. */
  full?: boolean;
  /** `campaign sync --settle-days`: days after which a window is not listed again. */
  settleDays?: number;
  /** Wait for the program holding the state folder to finish, instead of stopping with status 75. */
  wait?: boolean;
}

/**
 * Subcommands that only read the state folder: while another program holds it (the app, web mode, a sync), they
 * read beside it. Verify does too unless told to wait, and then records nothing of what it finds.
 */
const READING_SUBCOMMANDS: ReadonlySet<CampaignSubcommand> = new Set(['list', 'show', 'export', 'verify']);

/** The subcommand as the holder file names it, for the message another run gets meanwhile. */
const programOf = (subcommand: CampaignSubcommand): string => `mlso-dl campaign ${subcommand}`;

export async function runCampaignCommand(
  context: CliContext,
  subcommand: CampaignSubcommand,
  positional: readonly string[],
  options: CampaignCommandOptions,
): Promise<number> {
  const stateDir = options.stateDir ?? defaultStateFolder();
  const [first = ''] = positional;
  if (subcommand === 'sync') return syncCommand(context, first, options, stateDir);
  // Opened before the ledger: a file that cannot be read leaves the state folder alone.
  const importing = subcommand === 'import' ? await openCampaignFile(first) : undefined;
  let state: OpenedLedger;
  try {
    const program = programOf(subcommand);
    state =
      READING_SUBCOMMANDS.has(subcommand) && !options.wait
        ? await readStateLedger(stateDir, { program })
        : await whenStateFolderFree(context, Boolean(options.wait), () => openStateLedger(stateDir, { program }));
  } catch (error) {
    if (importing) await importing.handle.close();
    throw error;
  }
  try {
    tellRecovery(context, state);
    return await runOnLedger(
      context,
      new CampaignService({ ledger: state.ledger, state: state.state, client: context.client }),
      subcommand,
      first,
      options,
      importing,
      state.heldBy,
    );
  } finally {
    state.close();
    if (importing) await importing.handle.close();
  }
}

async function runOnLedger(
  context: CliContext,
  service: CampaignService,
  subcommand: Exclude<CampaignSubcommand, 'sync'>,
  first: string,
  options: CampaignCommandOptions,
  importing: CampaignFileInput | undefined,
  heldBy: StateHolder | undefined,
): Promise<number> {
  switch (subcommand) {
    case 'create':
      return await created(context, service, options, first);
    case 'add':
      return await added(context, service, options, first);
    case 'list':
      return listed(context, service, options);
    case 'show':
      return shown(context, service.overview(service.store.require(first)), options);
    case 'update':
      return await updated(context, service, first, options);
    case 'remove':
      return removed(context, service, first, options);
    case 'verify': {
      const report = await verifyWithProgress(context, service, first, options);
      const status = verified(context, report, options);
      if (report.notRecorded) tellNotRecorded(context, report.campaign, report.notRecorded, heldBy ?? {});
      return status;
    }
    case 'export':
      return await exported(context, service, first, options);
    case 'import':
      return await imported(context, service, importing!, options);
  }
}

function tellRecovery(context: CliContext, state: Pick<OpenedLedger, 'notice'>): void {
  if (state.notice) context.out.error(`mlso-dl: ${state.notice}`);
}

function queryFrom(options: CampaignCommandOptions): CampaignQuery {
  return { instrument: options.instrument ?? '', product: options.product ?? '', filters: filtersFrom(options) as CampaignQuery['filters'] };
}

async function created(context: CliContext, service: CampaignService, options: CampaignCommandOptions, name: string): Promise<number> {
  const campaign = await service.create({
    name,
    folder: path.resolve(options.outputDir ?? '.'),
    layout: options.layout ?? '',
    queries: [queryFrom(options)],
    autoSyncHours: options.autoSync ?? null,
  });
  const overview = service.overview(campaign);
  if (options.json) printJson(context.out, overview);
  else {
    context.out.info(
      `Created campaign "${text(campaign.name)}": ${describeQuery(campaign.queries[0]!)}, files in ${text(campaign.folder)}${campaign.layout ? ` by ${campaign.layout}` : ''}.`,
    );
    context.out.info(`Fetch its files with: mlso-dl campaign sync ${shellWord(campaign.name)} -u EMAIL`);
  }
  return EXIT_OK;
}

async function added(context: CliContext, service: CampaignService, options: CampaignCommandOptions, name: string): Promise<number> {
  const campaign = await service.addQuery(name, queryFrom(options));
  if (options.json) printJson(context.out, service.overview(campaign));
  else
    context.out.info(
      `Added ${describeQuery(campaign.queries.at(-1)!)} to "${text(campaign.name)}" (${campaign.queries.length} queries). Its files join at the next sync.`,
    );
  return EXIT_OK;
}

function listed(context: CliContext, service: CampaignService, options: CampaignCommandOptions): number {
  const overviews = service.overviews();
  if (options.json) {
    printJson(context.out, overviews);
    return EXIT_OK;
  }
  if (overviews.length === 0) {
    context.out.info('No campaigns yet: create one with `mlso-dl campaign create NAME -i INSTRUMENT -p PRODUCT --output-dir DIR`.');
    return EXIT_OK;
  }
  // The counts are the card's (`--json` prints them whole). Only a campaign shared with its files' SHA-256 can have
  // differing files, only a verify finds changed ones, only a campaign never synced has files not yet synced, only a
  // whole listing finds files no longer listed: those columns show when any campaign has some.
  const differs = overviews.some((o) => o.counts.differs > 0);
  const changed = overviews.some((o) => o.counts.changed > 0);
  const notSynced = overviews.some((o) => o.counts.notSynced > 0);
  const noLongerListed = overviews.some((o) => o.counts.noLongerListed > 0);
  const rows = overviews.map((o) => [
    o.name,
    String(o.counts.files),
    String(o.counts.onDisk),
    ...(differs ? [String(o.counts.differs)] : []),
    ...(changed ? [String(o.counts.changed)] : []),
    String(o.counts.queued),
    String(o.counts.failed),
    String(o.counts.missing),
    ...(notSynced ? [String(o.counts.notSynced)] : []),
    ...(noLongerListed ? [String(o.counts.noLongerListed)] : []),
    o.lastSyncAt ? o.lastSyncAt.slice(0, 19).replace('T', ' ') : 'never',
    o.folder,
  ]);
  const headings = [
    'Campaign',
    'Files',
    'On disk',
    ...(differs ? ['Differs'] : []),
    ...(changed ? ['Changed'] : []),
    'Queued',
    'Failed',
    'Missing',
    ...(notSynced ? ['Not synced'] : []),
    ...(noLongerListed ? ['No longer listed'] : []),
    'Last sync (UT)',
    'Folder',
  ];
  context.out.result(columnsTable(headings, rows, { header: !context.out.quiet }));
  return EXIT_OK;
}

function shown(context: CliContext, overview: CampaignOverview, options: CampaignCommandOptions): number {
  if (options.json) {
    printJson(context.out, overview);
    return EXIT_OK;
  }
  const { counts } = overview;
  const lines = [
    `Campaign   : ${text(overview.name)}`,
    `Folder     : ${text(overview.folder)}`,
    `Layout     : ${overview.layout === '' ? '(flat: every file in the folder itself)' : overview.layout}`,
    `Auto sync  : ${overview.autoSyncHours === null ? 'off' : `every ${overview.autoSyncHours} h while the app is open`}`,
    `Created    : ${overview.createdAt}`,
    `Last sync  : ${overview.lastSync ? `${overview.lastSync.at} (${syncSummary(overview.lastSync.total, overview.lastSync.reused?.from)})` : 'never'}`,
    `Files      : ${counts.files} (${counts.onDisk} on disk, ${counts.differs > 0 ? `${counts.differs} differ from the shared file list, ` : ''}${counts.changed > 0 ? `${counts.changed} changed on disk, ` : ''}${counts.queued} queued, ${counts.failed} failed, ${counts.notSynced > 0 ? `${counts.notSynced} not yet synced` : `${counts.missing} missing`}${counts.noLongerListed > 0 ? `, ${counts.noLongerListed} no longer listed by the archive` : ''})`,
    'Queries    :',
    ...overview.queries.map((query, index) => `  ${index + 1}. ${describeQuery(query)}`),
  ];
  context.out.result(lines.join('\n'));
  return EXIT_OK;
}

/** A new layout: the files already downloaded move to their new places, and the count says how many. */
async function updated(context: CliContext, service: CampaignService, name: string, options: CampaignCommandOptions): Promise<number> {
  const { campaign, moves, finished } = await service.change(name, { layout: options.layout ?? '' }, context.signal ? { signal: context.signal } : {});
  if (finished) tellLayoutFinished(context, campaign.name, finished, finished.layout);
  const result = { moved: moves?.moved ?? 0, leftForSync: moves?.leftForSync ?? 0 };
  if (options.json) printJson(context.out, { ...service.overview(campaign), ...result });
  else {
    const layout = campaign.layout === '' ? 'keeps every file in its folder itself' : `uses the layout ${campaign.layout}`;
    const left =
      result.leftForSync > 0
        ? ` ${plural(result.leftForSync, 'file was', 'files were')} not on disk as downloaded (missing or changed): \`mlso-dl campaign sync ${shellWord(campaign.name)} -u EMAIL\` fetches ${result.leftForSync === 1 ? 'it' : 'them'} to the new places.`
        : '';
    context.out.info(
      `"${text(campaign.name)}" now ${layout}: ${plural(result.moved, 'file', 'files')} moved to ${result.moved === 1 ? 'its' : 'their'} new place${result.moved === 1 ? '' : 's'}.${left}`,
    );
  }
  return EXIT_OK;
}

/** A layout change that was stopped half-way, finished before the command went on: said on stderr, as it moved files. */
function tellLayoutFinished(context: CliContext, name: string, moves: LayoutMoves, layout: string): void {
  const under = layout === '' ? 'in the folder itself' : `under ${layout}`;
  const left =
    moves.leftForSync > 0
      ? ` ${plural(moves.leftForSync, 'file was', 'files were')} not on disk as downloaded: \`mlso-dl campaign sync ${shellWord(name)} -u EMAIL\` fetches ${moves.leftForSync === 1 ? 'it' : 'them'} there.`
      : '';
  context.out.info(
    `Finished the layout change of "${text(name)}" that was stopped half-way: ${plural(moves.moved, 'file', 'files')} moved to ${moves.moved === 1 ? 'its place' : 'their places'} ${under}.${left}`,
  );
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function removed(context: CliContext, service: CampaignService, name: string, options: CampaignCommandOptions): number {
  const overview = service.overview(service.store.require(name));
  service.remove(name);
  if (options.json) printJson(context.out, { removed: overview.name, folder: overview.folder, filesKept: overview.counts.onDisk });
  else context.out.info(`Removed campaign "${text(overview.name)}"; its ${overview.counts.onDisk} files stay in ${text(overview.folder)}.`);
  return EXIT_OK;
}

/**
 * Verify, with a line on a terminal's stderr saying how many files are hashed (redrawn at most ten times a second,
 * and cleared when done); Ctrl-C stops the hashing at once.
 */
async function verifyWithProgress(context: CliContext, service: CampaignService, name: string, options: CampaignCommandOptions): Promise<VerifyReport> {
  const { stderr } = context.out;
  let shownAt = 0;
  let shown = false;
  const onHashed = (done: number, total: number): void => {
    if (!context.out.interactive || (Date.now() - shownAt < 100 && done < total)) return;
    shownAt = Date.now();
    shown = true;
    stderr.write(`\r\x1b[KVerifying: ${done} of ${total} files hashed`);
  };
  try {
    return await service.verify(name, {
      ...(context.signal ? { signal: context.signal } : {}),
      quick: Boolean(options.quick),
      onHashed,
      onLayoutFinished: (moves, layout) => tellLayoutFinished(context, name, moves, layout),
    });
  } finally {
    if (shown) stderr.write('\r\x1b[K');
  }
}

function verified(context: CliContext, report: VerifyReport, options: CampaignCommandOptions): number {
  // The counts are the campaign's (the card's and `campaign show`'s): a refused file is one of the missing.
  const bad = report.missing + report.notSynced + report.changed + report.failed + report.queued;
  const verdict = verifyVerdict(report);
  if (options.json) printJson(context.out, report);
  else if (verdict.tone === 'incomplete') {
    // Nothing wrong with what is there: the rest is queued (a sync under way, or one that was stopped).
    context.out.info(`${verdict.text}. A sync fetches the rest: \`mlso-dl campaign sync ${shellWord(report.campaign)} -u EMAIL\`, unless one is under way.`);
  } else {
    for (const problem of report.problems)
      context.out.result(`${problem.problem.padEnd(10)} ${text(problem.path)}${problem.reason ? ` (${text(problem.reason)})` : ''}`);
    context.out.info(
      `${report.onDisk} on disk and intact, ${report.missing} missing${report.refused > 0 ? ` (${report.refused} of them refused by sync)` : ''}, ${report.changed} changed, ${report.unexpected} unexpected, ${report.failed} failed` +
        (report.queued > 0 ? `, ${report.queued} queued` : '') +
        (report.notSynced > 0 ? `, ${report.notSynced} not yet synced` : '') +
        (report.noLongerListed > 0 ? `, ${report.noLongerListed} no longer listed by the archive` : '') +
        (report.differs > 0 ? `, ${report.differs} differ from the shared file list.` : '.') +
        (bad > 0 ? ` Run \`mlso-dl campaign sync ${shellWord(report.campaign)} -u EMAIL\` to fetch the missing and changed files again.` : '') +
        (report.differs > 0 ? ` ${DIFFERS_HINT}` : ''),
    );
  }
  return bad + report.differs > 0 ? EXIT_FAILURE : EXIT_OK;
}

/** Verify read beside the program holding the state folder found files the ledger still counts as on disk. */
function tellNotRecorded(context: CliContext, campaign: string, files: number, heldBy: StateHolder): void {
  context.out.error(
    `mlso-dl: Not recorded: ${describeHolder(heldBy)} is using the state folder, and the ledger still counts ${files === 1 ? 'this file' : `these ${files} files`} as on disk (a sync would not fetch ${files === 1 ? 'it' : 'them'} again). ` +
      `To record what verify finds, run \`mlso-dl campaign verify ${shellWord(campaign)} --wait\`: it waits for that program to finish.`,
  );
}

async function exported(context: CliContext, service: CampaignService, name: string, options: CampaignCommandOptions): Promise<number> {
  const format = options.format!;
  const result = await service.exportAs(name, format, { includeFiles: Boolean(options.withFiles) });
  const target = options.out ?? '-';
  if (target === '-') {
    try {
      await context.out.data(result.text, context.signal);
    } catch (error) {
      // A reader that left (`| head -1`) has seen enough; a failed stdout is reported by the process's own watcher.
      const stop = context.out.resultStop;
      if (stop !== undefined) return stop === 'reader-left' ? EXIT_OK : EXIT_FAILURE;
      throw error;
    }
  } else await writeWholeFile(target, result.text);
  if (options.json) {
    printJson(context.out, {
      campaign: service.store.require(name).name,
      format,
      out: target === '-' ? null : path.resolve(target),
      acknowledgement: result.acknowledgement,
    });
  } else if (target !== '-') {
    context.out.info(
      `Wrote the ${format === 'campaign' ? 'campaign file' : `${format.toUpperCase()} manifest`} of "${text(name)}" to ${path.resolve(target)}.`,
    );
    if (format !== 'campaign') context.out.result(result.acknowledgement.trimEnd());
  }
  return EXIT_OK;
}

async function imported(context: CliContext, service: CampaignService, file: CampaignFileInput, options: CampaignCommandOptions): Promise<number> {
  const { campaign, refused, moreRefused, autoSyncNotTaken } = await service.importStream(
    file.chunks(),
    {
      ...(options.outputDir !== undefined ? { folder: path.resolve(options.outputDir) } : {}),
      ...(options.name !== undefined ? { name: options.name } : {}),
      defaultParent: process.cwd(),
    },
    context.signal,
  );
  const overview = service.overview(campaign);
  if (options.json) printJson(context.out, { ...overview, refused });
  else {
    context.out.info(
      `Imported campaign "${text(campaign.name)}" (${campaign.queries.length} queries, ${overview.counts.files} files listed) into ${text(campaign.folder)}.`,
    );
    for (const refusal of refused) context.out.error(`refused: ${text(refusal.filename)}: ${refusal.reason}`);
    if (moreRefused > 0) context.out.error(`refused: ${moreRefused} more files, for the same reasons.`);
    if (autoSyncNotTaken !== null) {
      context.out.info(`The file asks for an automatic sync every ${autoSyncNotTaken} h; an imported campaign starts without one (turn it on in the app).`);
    }
    context.out.info(`Fetch its files with: mlso-dl campaign sync ${shellWord(campaign.name)} -u EMAIL`);
  }
  return EXIT_OK;
}

interface CampaignFileInput {
  handle: FileHandle;
  /** The file's bytes, a mebibyte at a time; a failing read is said as the file's problem. */
  chunks(): AsyncIterable<Uint8Array>;
}

/**
 * The campaign file to import, open, checked against the size cap before anything is read (a file over it is
 * refused saying the cap, not as unreadable), and read as it streams into the import.
 */
async function openCampaignFile(file: string): Promise<CampaignFileInput> {
  const cannotRead = (error: unknown) => new InvalidInputError(`Cannot read the campaign file ${file}: ${readProblem(error)}.`);
  const notRegular = (error: NotRegularFileError) =>
    new InvalidInputError(
      `Cannot read the campaign file ${file}: ${error.isFolder ? 'it is a folder, not a file' : `it is ${error.found}, not a regular file`}.`,
    );
  let handle: FileHandle | undefined;
  try {
    // Only a regular file: a FIFO would be waited on for ever, a device such as /dev/zero read without end.
    let info;
    ({ handle, stats: info } = await openRegularFile(path.resolve(file)));
    if (info.size > MAX_CAMPAIGN_FILE_BYTES) throw campaignFileTooLarge(MAX_CAMPAIGN_FILE_BYTES);
  } catch (error) {
    await handle?.close();
    if (error instanceof NotRegularFileError) throw notRegular(error);
    throw error instanceof InvalidInputError ? error : cannotRead(error);
  }
  const opened = handle;
  return {
    handle: opened,
    async *chunks() {
      try {
        yield* opened.createReadStream({ highWaterMark: 1024 * 1024, autoClose: false });
      } catch (error) {
        throw cannotRead(error);
      }
    },
  };
}

/**
 * `campaign sync NAME`, or `--all`: every campaign in turn under one hold of the state folder and one sign-in, each
 * with its own summary. One that fails does not stop the others (a paused queue or Ctrl-C does); the status is then
 * 1 and the last line on stderr names those that failed. With --json and --all, one compact object per campaign per
 * line (JSON Lines: `jq` reads each as it comes, `jq -s` makes them an array); a campaign that could not sync at all
 * is `{"campaign", "error": {"kind", "message"}}`.
 */
async function syncCommand(context: CliContext, name: string, options: CampaignCommandOptions, stateDir: string): Promise<number> {
  if (Boolean(options.all) === (name !== '')) {
    throw new UsageError(options.all ? "Give a campaign's name or --all, not both." : 'Name the campaign to sync, or give --all to sync every campaign.');
  }
  const batchId = randomUUID();
  if (options.allowOtherHosts) context.client.configure({ allowOtherHosts: true });
  const opened = await whenStateFolderFree(context, Boolean(options.wait), () =>
    openDownloadEngine(stateDir, {
      client: context.client,
      username: () => options.username!.trim(),
      concurrency: options.concurrency!,
      maxAttempts: options.retries! + 1,
      backoff: { ...DEFAULT_BACKOFF, baseMs: options.retryDelay! * 1000 },
      reuseBy: reuseByOf(options),
      rateLimit: options.limitRate ?? null,
      batchId,
      program: programOf('sync'),
    }),
  );
  tellRecovery(context, opened);
  const onInterrupt = (): void => void opened.engine.close();
  context.signal?.addEventListener('abort', onInterrupt, { once: true });
  try {
    const service = new CampaignService({ ledger: opened.ledger, state: opened.state, client: context.client });
    const names = options.all ? service.store.list().map((campaign) => campaign.name) : [service.store.require(name).name];
    // A wrong e-mail stops here, before anything is listed or queued.
    await opened.engine.signIn();
    const run: SyncRun = { context, service, opened, options, batchId, toldFailed: new Set() };
    if (options.all) return await syncEach(run, names);
    const outcome = await syncOne(run, names[0]!);
    if (outcome.interrupted !== undefined) tellInterrupted(run, outcome.interrupted, []);
    return outcome.status;
  } finally {
    context.signal?.removeEventListener('abort', onInterrupt);
    await opened.close();
  }
}

/** What each campaign's sync in one `campaign sync` run shares. */
interface SyncRun {
  context: CliContext;
  service: CampaignService;
  opened: OpenedEngine;
  options: CampaignCommandOptions;
  batchId: string;
  /** The failed jobs of the batch already named on stderr (under --all, by an earlier campaign's sync). */
  toldFailed: Set<number>;
}

async function syncEach(run: SyncRun, names: readonly string[]): Promise<number> {
  const { out } = run.context;
  if (names.length === 0) out.info('No campaigns to sync: create one with `mlso-dl campaign create NAME -i INSTRUMENT -p PRODUCT --output-dir DIR`.');
  const failed: string[] = [];
  for (const [index, name] of names.entries()) {
    let outcome: SyncOutcome;
    try {
      outcome = await syncOne(run, name);
    } catch (error) {
      // Ctrl-C is the whole run's end, said once by the command line.
      if (run.context.signal?.aborted) throw error;
      const data = toErrorData(error);
      out.error(`mlso-dl: "${text(name)}" did not sync: ${data.message}`);
      if (run.options.json) out.result(JSON.stringify({ campaign: name, error: { kind: data.kind, message: data.message } }));
      outcome = { status: EXIT_FAILURE, stopsTheRest: false };
    }
    if (outcome.status !== EXIT_OK) failed.push(name);
    if (outcome.stopsTheRest) {
      const left = names.slice(index + 1);
      if (outcome.interrupted !== undefined) {
        tellInterrupted(run, outcome.interrupted, left);
        return outcome.status;
      }
      if (left.length > 0) out.error(`mlso-dl: not synced: ${left.map((other) => `"${text(other)}"`).join(', ')}.`);
      for (const other of left) failed.push(other);
      break;
    }
  }
  if (failed.length === 0) return EXIT_OK;
  out.error(`mlso-dl: ${failed.length} of ${names.length} campaigns did not sync cleanly: ${failed.map((other) => `"${text(other)}"`).join(', ')}.`);
  return EXIT_FAILURE;
}

interface SyncOutcome {
  status: number;
  /** Interrupted, or the queue paused (signed out, disk full): the next campaigns would fare no better. */
  stopsTheRest: boolean;
  /** Interrupted (Ctrl-C, SIGTERM): where the campaign's files stood then. */
  interrupted?: { campaign: string; counts: CampaignCounts; listingCut: boolean };
}

/**
 * Stopped by a signal: the campaign whose sync was under way, with its files as they stand once the transfers in
 * flight have stopped (their jobs queued again), and `notReached`, the campaigns `--all` had still to sync.
 */
function tellInterrupted(run: SyncRun, interrupted: NonNullable<SyncOutcome['interrupted']>, notReached: readonly string[]): void {
  const { campaign, counts, listingCut } = interrupted;
  const standing = listingCut && counts.files === 0 ? `"${text(campaign)}" has no files listed yet` : `"${text(campaign)}" has ${filesLeftText(counts)}`;
  const cut = listingCut && counts.files > 0 ? ' (its listing was not finished: there may be more)' : '';
  const rest = notReached.length > 0 ? `; not synced: ${notReached.map((other) => `"${text(other)}"`).join(', ')}` : '';
  run.context.out.error(`Interrupted: ${standing}${cut}${rest}. Run the same command again to continue.`);
}

/** One campaign's sync: queue what is missing through the engine (the run's batch) and wait, with progress. */
async function syncOne(run: SyncRun, name: string): Promise<SyncOutcome> {
  const { context, service, opened, options } = run;
  const { out } = context;
  let display: DownloadDisplay | undefined;
  const show = (update: ProgressUpdate): void => display?.update(update);
  try {
    if (!out.quiet && !options.json) display = (await import('../output/download-display')).createDownloadDisplay(out);
    opened.engine.on('progress', show);
    let synced: Awaited<ReturnType<CampaignService['sync']>>;
    try {
      synced = await service.sync(name, opened.engine, {
        existingFiles: options.onExisting ?? 'overwrite',
        full: options.full === true,
        ...(options.settleDays !== undefined ? { settleDays: options.settleDays } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
        onLayoutFinished: (moves, layout) => tellLayoutFinished(context, name, moves, layout),
      });
    } catch (error) {
      if (!context.signal?.aborted) throw error;
      display?.stop();
      display = undefined;
      return await interruptedSync(run, name, true);
    }
    const outcome = context.signal?.aborted ? 'paused' : await opened.engine.whenSettled();
    opened.engine.off('progress', show);
    display?.stop();
    display = undefined;
    if (context.signal?.aborted) return await interruptedSync(run, name, false);
    const report = synced.refresh();
    service.store.recordSync(synced.campaignId, report);
    printSyncReport(context, report, Boolean(options.json), Boolean(options.all));
    if (outcome === 'paused') {
      out.error(`mlso-dl: ${opened.engine.overall().pauseReason?.message ?? 'The download queue was paused.'} Run the same command again to continue.`);
      return { status: EXIT_FAILURE, stopsTheRest: true };
    }
    for (const failed of opened.ledger.list({ batchId: run.batchId, states: ['failed'], includeCleared: true })) {
      if (run.toldFailed.has(failed.id)) continue;
      run.toldFailed.add(failed.id);
      out.error(`failed: ${text(failed.filename)}: ${failed.lastError ?? 'unknown error'}`);
    }
    // A listed file refused (an unsafe name, another server) is a file not fetched, as with files --download; one
    // that differs from the shared file list is not the file the campaign promised.
    const clean = report.total.failed + report.total.missing + report.total.changed + report.total.differs + report.refused.length === 0;
    return { status: clean ? EXIT_OK : EXIT_FAILURE, stopsTheRest: false };
  } finally {
    opened.engine.off('progress', show);
    display?.stop();
  }
}

/** The outcome of a sync a signal stopped, counted once the engine has stopped the transfers in flight. */
async function interruptedSync(run: SyncRun, name: string, listingCut: boolean): Promise<SyncOutcome> {
  await run.opened.engine.close();
  const campaign = run.service.store.require(name);
  const { counts } = run.service.overview(campaign);
  return { status: interruptedExitCode(run.context.signal), stopsTheRest: true, interrupted: { campaign: campaign.name, counts, listingCut } };
}

/** A sync's report: its table and summary lines, or JSON (one compact line each when `oneLine`, under --all). */
function printSyncReport(context: CliContext, report: SyncReport, json: boolean, oneLine: boolean): void {
  if (json) {
    if (oneLine) context.out.result(JSON.stringify(report));
    else printJson(context.out, report);
    return;
  }
  // Downloaded, Reused and Already there split what is on disk, so each row still adds up to what was listed; the
  // total row is the campaign's counts (those `campaign list` and the app's card show).
  const reused = report.total.reused > 0;
  const differs = report.total.differs > 0;
  const changed = report.total.changed > 0;
  const noLongerListed = report.total.noLongerListed > 0;
  const row = (label: string, counts: SyncCounts): string[] => [
    label,
    String(counts.listed),
    String(counts.new),
    String(counts.downloaded),
    ...(reused ? [String(counts.reused)] : []),
    String(counts.alreadyThere),
    ...(differs ? [String(counts.differs)] : []),
    ...(changed ? [String(counts.changed)] : []),
    String(counts.queued),
    String(counts.failed),
    String(counts.missing),
    ...(noLongerListed ? [String(counts.noLongerListed)] : []),
  ];
  const rows = [...report.queries.map((query, index) => row(`${index + 1}. ${describeQuery(query.query)}`, query)), row('Total', report.total)];
  const headings = [
    'Query',
    'Listed',
    'New',
    'Downloaded',
    ...(reused ? ['Reused'] : []),
    'Already there',
    ...(differs ? ['Differs'] : []),
    ...(changed ? ['Changed'] : []),
    'Queued',
    'Failed',
    'Missing',
    ...(noLongerListed ? ['No longer listed'] : []),
  ];
  // The table is the sync's summary, not a result to pipe (--json is): --quiet leaves it out, so that a sync that went
  // well prints nothing (cron mails only what a job prints).
  if (!context.out.quiet) context.out.result(columnsTable(headings, rows));
  context.out.info(`Synced "${text(report.campaign)}": ${text(syncSummary(report.total, report.reused?.from))}.`);
  const found = report.foundOnDisk;
  if (found && found.missing + found.changed > 0) {
    context.out.info(
      `Not on disk as downloaded: ${found.missing} missing, ${found.changed} changed (another size or modification time); queued to be fetched again.`,
    );
  }
  if (report.duplicates > 0) context.out.info(`${report.duplicates} files listed by more than one query were kept once.`);
  if (report.total.noLongerListed > 0) {
    context.out.info(
      `${plural(report.total.noLongerListed, 'file of the campaign is', 'files of the campaign are')} no longer listed by the archive: kept in the folder if there, and not fetched again.`,
    );
  }
  for (const refusal of report.refused) context.out.error(`refused: ${text(refusal.filename)}: ${refusal.reason}`);
  if (report.moved.length > 0) {
    context.out.info(
      `Moved ${report.moved.length} ${report.moved.length === 1 ? 'file' : 'files'} to a new place in the layout (the archive lists ${report.moved.length === 1 ? 'it' : 'them'} with other values):`,
    );
  }
  for (const move of report.moved) {
    const how = move.movedOnDisk ? '' : ` (fetched there: the copy at ${text(move.from)} was missing or changed)`;
    context.out.info(`moved: ${text(move.from)} to ${text(move.to)}${how}`);
  }
  for (const file of report.differing) {
    context.out.error(`differs: ${text(file.path)}: its SHA-256 is ${file.sha256}, the shared file list gave ${file.expectedSha256}`);
  }
  if (report.differing.length > 0) context.out.error(DIFFERS_HINT);
}

/** What a file that differs from a shared list means, and what to do (sync and verify say it alike). */
const DIFFERS_HINT =
  'A file that differs is not the one the shared campaign file named (the archive may have reprocessed it): it is kept, and counted apart; ask whoever shared the campaign which one to use.';

function describeQuery(query: CampaignQuery): string {
  const filters = Object.entries(query.filters).map(([name, value]) => `${name} ${value}`);
  return `${text(query.instrument)} ${text(query.product)}${filters.length > 0 ? ` (${filters.map(text).join(', ')})` : ''}`;
}

const text = (value: string): string => escapeControlCharacters(value);

/** A name as one word for the shell: quoted when it holds anything but plain characters. */
function shellWord(name: string): string {
  return /^[\w.@-]+$/.test(name) ? name : `'${name.replaceAll("'", "'\\''")}'`;
}
