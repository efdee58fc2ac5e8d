// The `campaign` command and its subcommands: named sets of queries kept in one folder, synced, verified, exported
// and shared. Registration only (light, loaded at start-up); the work is in commands/campaign-commands.ts.
import { Option, type Command } from 'commander';
import { REGISTRATION_URL } from '../../src-shared/api/service-facts';
import { LAYOUT_EXAMPLE, LAYOUT_PLACEHOLDERS } from '../../src-shared/campaigns/folder-layout';
import { CAMPAIGN_EXPORT_FORMATS } from '../../src-shared/campaigns/campaign-types';
import { defaultStateFolder } from '../core/state/state-folder';
import type { CliContext } from './cli-context';
import type { CampaignCommandOptions, CampaignSubcommand } from './commands/campaign-commands';
import { addCommandOnDemand } from './commands-on-demand';
import { addEngineOptions } from './engine-options';
import { addFilterOptions } from './filter-options';
import { integerParser } from './option-parsers';
import { SETTING_DEFINITIONS } from '../../src-shared/settings/setting-definitions';
import { waitOption } from './wait-option';

export interface CampaignProgramHooks {
  context(): Promise<CliContext>;
  /** A context for work that asks the server (with --verbose, the server's information first). */
  serverContext(): Promise<CliContext>;
  setExitCode(code: number): void;
}

/** Subcommands that ask the server (product metadata, listings, the instruments' DOIs). */
const SERVER_SUBCOMMANDS: ReadonlySet<CampaignSubcommand> = new Set(['create', 'add', 'sync', 'export']);

export function addCampaignCommands(program: Command, hooks: CampaignProgramHooks): void {
  addCommandOnDemand(
    program,
    'campaign',
    'named sets of queries kept in one folder: create, add, list, show, update, remove, sync, verify, export, import',
    (campaign) => defineCampaignCommands(campaign.enablePositionalOptions(), hooks),
  );
}

function defineCampaignCommands(campaign: Command, hooks: CampaignProgramHooks): void {
  const run =
    (subcommand: CampaignSubcommand) =>
    async (...args: unknown[]) => {
      // Commander passes the positional arguments, then the options, then the command.
      const options = args.at(-2) as CampaignCommandOptions;
      const positional = args.slice(0, -2) as string[];
      const { runCampaignCommand } = await import('./commands/campaign-commands');
      const asksServer = SERVER_SUBCOMMANDS.has(subcommand);
      hooks.setExitCode(await runCampaignCommand(await (asksServer ? hooks.serverContext() : hooks.context()), subcommand, positional, options));
    };
  const stateDir = () =>
    new Option('--state-dir <dir>', `folder of the download ledger, where campaigns are kept (default: ${defaultStateFolder()})`).env('MLSO_STATE_DIR');
  const json = () => new Option('--json', 'print the result as JSON');
  const placeholders = LAYOUT_PLACEHOLDERS.map((name) => `{${name}}`).join(' ');
  const layoutHelp = `folder layout inside the output folder, e.g. ${LAYOUT_EXAMPLE} (placeholders: ${placeholders}; default: every file in the folder itself)`;

  addFilterOptions(
    campaign
      .command('create')
      .argument('<name>', 'the campaign\'s name, e.g. "2024 eclipse"')
      .description('create a campaign from a first query; its files go into --output-dir')
      .requiredOption('-i, --instrument <id>', 'instrument id, e.g. kcor')
      .requiredOption('-p, --product <id>', 'product id, e.g. pb'),
  )
    .requiredOption('-o, --output-dir <dir>', 'folder the campaign keeps its files in (created when needed)')
    .option('--layout <template>', layoutHelp)
    .addOption(new Option('--auto-sync <hours>', 'in the desktop app, sync every so many hours while it is open').argParser(integerParser(1, 24 * 365)))
    .addOption(stateDir())
    .addOption(waitOption())
    .addOption(json())
    .action(run('create'));

  addFilterOptions(
    campaign
      .command('add')
      .argument('<name>', 'the campaign')
      .description('add a query to a campaign (its files join at the next sync)')
      .requiredOption('-i, --instrument <id>', 'instrument id, e.g. ucomp')
      .requiredOption('-p, --product <id>', 'product id, e.g. l2'),
  )
    .addOption(stateDir())
    .addOption(waitOption())
    .addOption(json())
    .action(run('add'));

  campaign.command('list').description('list the campaigns with their counts and last sync').addOption(stateDir()).addOption(json()).action(run('list'));

  campaign
    .command('show')
    .argument('<name>', 'the campaign')
    .description("show a campaign's queries, folder, layout and counts")
    .addOption(stateDir())
    .addOption(json())
    .action(run('show'));

  campaign
    .command('update')
    .argument('<name>', 'the campaign')
    .description(
      "change a campaign's folder layout: the files already downloaded move to their new places in its folder (missing or changed ones are fetched there by the next sync)",
    )
    .requiredOption(
      '--layout <template>',
      `the new folder layout, e.g. ${LAYOUT_EXAMPLE} (placeholders: ${placeholders}; '' for every file in the folder itself)`,
    )
    .addOption(stateDir())
    .addOption(waitOption())
    .addOption(json())
    .action(run('update'));

  campaign
    .command('remove')
    .argument('<name>', 'the campaign')
    .description('forget a campaign (its files stay on disk)')
    .addOption(stateDir())
    .addOption(waitOption())
    .addOption(json())
    .action(run('remove'));

  const sync = campaign
    .command('sync')
    .argument('[name]', 'the campaign (or --all)')
    .description('list every query and download what is missing, lost or changed; reports per query and in total')
    .option('--all', 'sync every campaign in turn, each with its summary (with --json, one object per line); status 1 when any failed, named on stderr')
    .option('--full', 'list every window of every query again, settled or not (a sync lists again only what can still change)')
    .addOption(
      new Option('--settle-days <days>', 'a month of a query is listed again until it has been over this many days (then the ledger is trusted for it)')
        .argParser(integerParser(SETTING_DEFINITIONS.settleDays.range.min, SETTING_DEFINITIONS.settleDays.range.max))
        .default(SETTING_DEFINITIONS.settleDays.default),
    )
    .addOption(new Option('-u, --username <email>', `e-mail registered at ${REGISTRATION_URL}`).env('MLSO_USERNAME').makeOptionMandatory());
  addEngineOptions(
    sync,
    new Option('--on-existing <policy>', 'a file in the folder that is not the one the campaign expects: replace it, or leave it (and count it missing)')
      .choices(['overwrite', 'skip'])
      .default('overwrite'),
  )
    .addOption(stateDir())
    .addOption(waitOption())
    .addOption(json())
    .action(run('sync'));

  campaign
    .command('verify')
    .argument('<name>', 'the campaign')
    .description('recompute the SHA-256 of every file against the ledger; exit status 1 when any is missing, changed or failed')
    .option('--quick', 'hash only the files whose size or modification time changed since they were last found intact')
    .addOption(stateDir())
    .addOption(
      waitOption(
        'while another MLSO Downloader (the app, web mode, another mlso-dl) is using the state folder, wait for it to finish so that what verify finds is recorded (without --wait, verify reads beside it and records nothing)',
      ),
    )
    .addOption(json())
    .action(run('verify'));

  campaign
    .command('export')
    .argument('<name>', 'the campaign')
    .description('write the manifest (csv, json) with the acknowledgement, or the campaign file to share (campaign)')
    .addOption(new Option('--format <format>', 'what to write').choices([...CAMPAIGN_EXPORT_FORMATS]).makeOptionMandatory())
    .requiredOption('--out <file>', 'file to write, or - for standard output (the exact bytes into a pipe or a file; shown as text on a terminal)')
    .option('--with-files', 'campaign format: include the resolved file list with each SHA-256, so a sync elsewhere reproduces the same files')
    .addOption(stateDir())
    .addOption(json())
    .action(run('export'));

  campaign
    .command('import')
    .argument('<file>', 'a campaign file (from `campaign export NAME --format campaign`)')
    .description('add a shared campaign, file list and all or nothing (its automatic sync stays off); sync it to fetch its files')
    .option('-o, --output-dir <dir>', "folder for the campaign's files (default: a folder named after it in the current one)")
    .option('--name <name>', "a name of your own instead of the file's")
    .addOption(stateDir())
    .addOption(waitOption())
    .addOption(json())
    .action(run('import'));
}
