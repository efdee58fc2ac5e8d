// The mlso-dl command tree: the official `mlsoapi`'s commands and flags (see the README's differences from it),
// plus --json everywhere, the download engine's options, the emulator and web mode.
// Start-up matters (`--version`, `--help` must be instant): this module and what it imports statically are light
// leaf modules; each command loads the client, the engine, the emulator or the web server when it runs, and a run
// defines in full only the command it parses (commands-on-demand.ts).
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_API_VERSION, DEFAULT_BASE_URL, DEFAULT_CLIENT_NAME, REGISTRATION_URL } from '../../src-shared/api/service-facts';
import { terminalText } from './output/terminal-text';
import { addCampaignCommands } from './campaign-program';
import { addCommandOnDemand, defineInFull, defineWhenReached } from './commands-on-demand';
import { addEngineOptions } from './engine-options';
import { addFilterOptions } from './filter-options';
import type { CliContext, CliIo } from './cli-context';
import type { FilesOptions } from './commands/files-command';
import type { MockServerOptions } from './commands/mock-server-command';
import type { WebOptions } from './commands/web-command';
import type { QuicklookOptions } from './commands/quicklook-command';
import type { HeaderOptions } from './commands/header-command';
import type { PixelOptions } from './commands/pixel-command';
import type { MovieOptions } from './commands/movie-command';
import type { CrOptions } from './commands/cr-command';
import type { Settings } from '../../src-shared/settings/settings-types';
import { DEFAULT_LISTING_TIMEOUT_MINUTES, DEFAULT_MAX_LISTING_MEGABYTES } from '../../src-shared/settings/default-settings';
import { EXISTING_FILE_POLICIES } from '../../src-shared/downloads/existing-file-policy';
import { LOCAL_BASE_URL, type GlobalOptions } from './global-options';
import { integerParser, parseByteSize, parseCalendarDay, parseDurationSeconds, parseFraction } from './option-parsers';
import { CLIENT_VERSION } from './version';
import { defaultStateFolder } from '../core/state/state-folder';
import { waitOption } from './wait-option';

export interface ProgramRun {
  program: Command;
  /** The exit status the chosen command settled on. */
  exitCode: () => number;
}

/**
 * The program, with actions that report their exit status. `commands`: 'on-demand' (what a run needs) defines each
 * command in full when commander reaches it (commands-on-demand.ts); 'in-full' defines them all at once, for a caller
 * that reads or changes a command before parsing.
 */
export function buildProgram(io: CliIo, commands: 'on-demand' | 'in-full' = 'in-full'): ProgramRun {
  let exitCode = 0;
  const program = new Command('mlso-dl');
  // Before any command is added: each inherits its help settings from the program as it is added.
  defineWhenReached(program);
  const onDemand = (name: string, description: string, define: (command: Command) => void): void => addCommandOnDemand(program, name, description, define);
  // The client (axios, cookies, schemas) loads only for a command that runs.
  const context = async (): Promise<CliContext> => (await import('./cli-context')).createContext(program.opts<GlobalOptions>(), io);
  /** The context of a command that asks the server; with --verbose the server's information comes first, as in mlsoapi. */
  const serverContext = async (): Promise<CliContext> => {
    const created = await context();
    await (await import('./server-information')).printServerInformation(created);
    return created;
  };
  const json = () => new Option('--json', 'print the result as JSON');

  program
    .description(`Find and download MLSO solar observations from the command line (MLSO Downloader ${CLIENT_VERSION})`)
    .enablePositionalOptions()
    .version(`mlso-dl ${CLIENT_VERSION}`, '-v, --version', 'show the version and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .addOption(new Option('-u, --base-url <url>', 'base URL of the MLSO API').default(DEFAULT_BASE_URL).env('MLSO_BASE_URL'))
    .option('--local', `use the server on this computer, ${LOCAL_BASE_URL} (wins over --base-url, as in mlsoapi)`)
    .addOption(new Option('--api-version <version>', 'API version').default(DEFAULT_API_VERSION))
    .addOption(new Option('--client-name <name>', 'client name sent to the files endpoint').default(DEFAULT_CLIENT_NAME))
    .addOption(
      new Option('--listing-timeout <duration>', 'most time a file listing (or any catalogue answer) may take, e.g. 30m')
        .default(DEFAULT_LISTING_TIMEOUT_MINUTES * 60, `${DEFAULT_LISTING_TIMEOUT_MINUTES}m`)
        .argParser(positive(parseDurationSeconds, '10m')),
    )
    .addOption(
      new Option('--max-listing-size <size>', 'largest file listing (or any catalogue answer) accepted, e.g. 512MB')
        .default(DEFAULT_MAX_LISTING_MEGABYTES * 1024 * 1024, `${DEFAULT_MAX_LISTING_MEGABYTES}MB`)
        .argParser(positive(parseByteSize, '512MB')),
    )
    .option(
      '--proxy <address>',
      'send every request through this proxy, e.g. http://proxy.example.org:3128, or "direct" for none (default: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY)',
    )
    .option('--verbose', 'print the server information first, then each request URL')
    .option('-q, --quiet', 'print only results and errors: tables without their header, no progress bars, summaries or notes')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => (io.stdout ?? process.stdout).write(text),
      // Commander quotes what was typed (or pasted) back in its messages: no control character reaches the terminal.
      writeErr: (text) => (io.stderr ?? process.stderr).write(terminalText(text)),
    });

  onDemand('about', 'show the server version and documentation links', (command) =>
    command.addOption(json()).action(async (options: { json?: boolean }) => {
      // `about` prints the server information itself: --verbose does not ask for it twice (nor does mlsoapi).
      const { aboutCommand } = await import('./commands/catalogue-commands');
      exitCode = await aboutCommand(await context(), options);
    }),
  );

  onDemand('instruments', 'list the instruments and the dates they cover', (command) =>
    command.addOption(json()).action(async (options: { json?: boolean }) => {
      const { instrumentsCommand } = await import('./commands/catalogue-commands');
      exitCode = await instrumentsCommand(await serverContext(), options);
    }),
  );

  onDemand('products', "list an instrument's data products", (command) =>
    command
      .requiredOption('-i, --instrument <id>', 'instrument id, e.g. kcor or ucomp')
      .addOption(json())
      .action(async (options: { instrument: string; json?: boolean }) => {
        const { productsCommand } = await import('./commands/catalogue-commands');
        exitCode = await productsCommand(await serverContext(), options);
      }),
  );

  onDemand('files', "list (and with --download, fetch) a product's files", (files) => {
    files.requiredOption('-i, --instrument <id>', 'instrument id, e.g. kcor').requiredOption('-p, --product <id>', 'product id, e.g. pb');
    addFilterOptions(files)
      .option('-d, --download', 'download the listed files')
      .addOption(new Option('-u, --username <email>', `e-mail registered at ${REGISTRATION_URL} (needed to download)`).env('MLSO_USERNAME'))
      .option('-o, --output-dir <dir>', 'folder for downloaded files (created if missing)', '.');
    addEngineOptions(files, new Option('--on-existing <policy>', 'when the file is already in the folder').choices([...EXISTING_FILE_POLICIES]).default('skip'))
      .addOption(new Option('--state-dir <dir>', `folder of the download ledger (default: ${defaultStateFolder()})`).env('MLSO_STATE_DIR'))
      .addOption(waitOption())
      .addOption(json())
      .action(async (options: FilesOptions) => {
        const { filesCommand } = await import('./commands/files-command');
        exitCode = await filesCommand(await serverContext(), options);
      });
  });

  addCampaignCommands(program, { context, serverContext, setExitCode: (code) => (exitCode = code) });

  onDemand('mock-server', 'run the bundled emulator of the MLSO API (demo server and test double) until Ctrl-C', (command) =>
    command
      .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
      .addOption(new Option('--port <n>', 'port (0 picks a free one)').default(5000).argParser(integerParser(0, 65535)))
      .addOption(new Option('--days <n>', 'number of synthetic observing days').argParser(integerParser(1, 3650)))
      .addOption(new Option('--last-day <date>', 'last observing day, YYYY-MM-DD').argParser(parseCalendarDay))
      .addOption(new Option('--cadence <seconds>', 'KCor pB cadence in seconds').argParser(integerParser(1, 3600)))
      .addOption(new Option('--image-size <pixels>', 'width and height of synthetic images').argParser(integerParser(8, 16384)))
      .addOption(
        new Option(
          '--ucomp-image-size <pixels>',
          'width of UCoMP images, 4/5 of it their height (default: --image-size; 1280 makes real 1280 x 1024, ~31 MB level 2 files)',
        ).argParser(integerParser(8, 16384)),
      )
      .addOption(new Option('--latency <duration>', 'delay before every answer, e.g. 40ms').argParser(parseDurationSeconds))
      .addOption(new Option('--bandwidth <rate>', 'per-connection download rate, e.g. 25MB/s').argParser(parseByteSize))
      .addOption(new Option('--failure-rate <fraction>', 'fraction of downloads answered with a server error').argParser(parseFraction))
      .addOption(new Option('--reset-rate <fraction>', 'fraction of downloads cut off mid-body').argParser(parseFraction))
      .addOption(new Option('--session-lifetime <duration>', 'how long a session cookie lasts, e.g. 10m').argParser(parseDurationSeconds))
      .addOption(new Option('--registered <emails>', 'comma-separated registered e-mails'))
      .addOption(new Option('--body-form <form>', 'how downloads are sent').choices(['gzip-body', 'content-encoding', 'alternate']))
      .addOption(new Option('--no-byte-ranges', 'send every download whole, ignoring Range requests (as a server without resume support does)'))
      .addOption(new Option('--seed <n>', 'seed of every random choice').argParser(integerParser(0, 2 ** 31)))
      .option('--tls', "serve https with a throwaway certificate (made with openssl); clients trust it through the authority's file it prints")
      .action(async (options: MockServerOptions) => {
        const { mockServerCommand } = await import('./commands/mock-server-command');
        exitCode = await mockServerCommand(await context(), options);
      }),
  );

  onDemand('web', 'run the app in your browser: prints an address to open (this computer only)', (command) =>
    command
      .addOption(new Option('--port <n>', 'port (0 picks a free one)').default(0).argParser(integerParser(0, 65535)))
      .option('-o, --output-dir <dir>', 'download folder (overrides the saved setting)')
      .addOption(new Option('--state-dir <dir>', `folder of the download ledger and settings (default: ${defaultStateFolder()})`).env('MLSO_STATE_DIR'))
      .option('--demo', 'use the bundled demo server')
      .action(async (options: WebOptions) => {
        const { webCommand } = await import('./commands/web-command');
        exitCode = await webCommand(await context(), options, explicitServerOptions(program));
      }),
  );

  // Commands on local files and dates: no server, and nothing of the client is loaded.
  onDemand('quicklook', 'write a PNG quick look of a FITS image, oriented as ds9 shows it', (command) =>
    command
      .argument('<file>', 'the FITS file')
      .requiredOption('-o, --out <png>', 'the PNG file to write, or - for standard output')
      .option('--stretch <name>', 'linear, sqrt, log or asinh (default: asinh)')
      .option('--clip <low,high>', 'percentiles at which black and white begin (default: 1,99.5)')
      .option('--hdu <n>', 'the HDU to show, 0 being the primary (default: the first that holds an image)')
      .option('--size <pixels>', 'shrink to fit a square this large, averaging pixels')
      .option('--colormap <name>', 'grey, viridis, inferno, soholasco2 or soholasco3 (default: grey)')
      .option('--overlay <list>', 'draw over the image, from its WCS: limb, north, radii=1.5:2:3 (comma-separated)')
      .option('--title [text]', "a title above the image (default text: the header's instrument, product and DATE-OBS UT)")
      .option('--colorbar', 'a colour bar below the image, with the clip values and unit')
      .option('--axes', 'helioprojective x and y in arcsec along the edges, with ticks, from its WCS')
      .addOption(json())
      .action(async (file: string, options: QuicklookOptions) => {
        const { quicklookCommand } = await import('./commands/quicklook-command');
        exitCode = await quicklookCommand(program.opts<GlobalOptions>(), io, file, options);
      }),
  );

  onDemand('header', "print a FITS file's header cards", (command) =>
    command
      .argument('<file>', 'the FITS file')
      .option('--hdu <n>', 'only this HDU, 0 being the primary (default: every HDU)')
      .addOption(json())
      .action(async (file: string, options: HeaderOptions) => {
        const { headerCommand } = await import('./commands/header-command');
        exitCode = await headerCommand(program.opts<GlobalOptions>(), io, file, options);
      }),
  );

  onDemand('movie', 'make a movie of FITS files in time order: an animated GIF, an MP4 (through ffmpeg) or numbered PNG frames', (command) =>
    command
      .argument('[files...]', 'the FITS files (any order: they are put in DATE-OBS order)')
      .option('--campaign <name>', "instead of files: the campaign's files that are downloaded and on disk")
      .addOption(new Option('--state-dir <dir>', 'folder of the download ledger, where campaigns are kept (with --campaign)').env('MLSO_STATE_DIR'))
      .requiredOption('-o, --out <path>', 'movie.gif, movie.mp4, or a folder for the frames (ending in /)')
      .option('--stretch <name>', 'linear, sqrt, log or asinh (default: asinh)')
      .option('--clip <low,high>', 'percentiles of the first frame (or first difference) every frame shares (default: 1,99.5)')
      .option('--colormap <name>', 'grey, viridis, inferno, soholasco2 or soholasco3 (default: grey)')
      .option('--difference', 'a running difference: each frame minus the one before it')
      .option('--fps <n>', 'frames per second, 1 to 60 (default: 10)')
      .option('--size <pixels>', 'shrink each frame to fit a square this large, averaging pixels')
      .option('--hdu <n>', 'the HDU of each file, 0 being the primary (default: the first that holds an image)')
      .option('--from <date>', 'leave out frames before this DATE-OBS (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS UT)')
      .option('--to <date>', 'leave out frames after this DATE-OBS')
      .addOption(json())
      .action(async (files: string[], options: MovieOptions) => {
        const { movieCommand } = await import('./commands/movie-command');
        exitCode = await movieCommand(program.opts<GlobalOptions>(), io, files, options);
      }),
  );

  onDemand('pixel', "one pixel of a FITS image: its value, and where it is on the sky and the Sun (from the image's WCS)", (command) =>
    command
      .argument('<file>', 'the FITS file')
      .argument('<x>', 'the column, counted from 1 as FITS does')
      .argument('<y>', 'the row, counted from 1 at the bottom as FITS does')
      .option('--hdu <n>', 'the HDU, 0 being the primary (default: the first that holds an image)')
      .addOption(json())
      .action(async (file: string, x: string, y: string, options: PixelOptions) => {
        const { pixelCommand } = await import('./commands/pixel-command');
        exitCode = await pixelCommand(program.opts<GlobalOptions>(), io, file, x, y, options);
      }),
  );

  onDemand('cr', 'when Carrington rotations start and end (UT), or which one a date falls in', (command) =>
    command
      .argument('[rotation]', 'the rotation number, e.g. 2295, or a range of them, e.g. 2290-2300')
      .option('--date <date>', 'the rotation under way on this date: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT)')
      .addOption(json())
      .action(async (rotation: string | undefined, options: CrOptions) => {
        const { crCommand } = await import('./commands/cr-command');
        exitCode = await crCommand(program.opts<GlobalOptions>(), io, rotation, options);
      }),
  );

  if (commands === 'in-full') for (const command of program.commands) defineInFull(command);
  return { program, exitCode: () => exitCode };
}

/** A parser that also refuses zero: a limit of nothing would refuse every answer. */
function positive(parse: (value: string) => number, example: string): (value: string) => number {
  return (value) => {
    const parsed = parse(value);
    if (!(parsed > 0)) throw new InvalidArgumentError(`Use a value greater than 0, such as ${example}.`);
    return parsed;
  };
}

/** The global server options the user actually typed (or set in the environment), not their defaults. */
function explicitServerOptions(program: Command): Partial<Settings> {
  const given = (name: string): boolean => ['cli', 'env'].includes(program.getOptionValueSource(name) ?? '');
  const options = program.opts<GlobalOptions>();
  return {
    ...(given('baseUrl') ? { baseUrl: options.baseUrl, useDemoServer: false } : {}),
    ...(options.local ? { baseUrl: LOCAL_BASE_URL, useDemoServer: false } : {}),
    ...(given('apiVersion') ? { apiVersion: options.apiVersion } : {}),
    ...(given('clientName') ? { clientName: options.clientName } : {}),
    // The app keeps these limits in whole minutes and megabytes: round up, never below what was asked.
    ...(given('listingTimeout') ? { listingTimeoutMinutes: Math.ceil(options.listingTimeout / 60) } : {}),
    ...(given('maxListingSize') ? { maxListingMegabytes: Math.ceil(options.maxListingSize / (1024 * 1024)) } : {}),
  };
}
