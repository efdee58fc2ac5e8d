// The download engine's options, declared once for every command that downloads (`files --download`,
// `campaign sync`), with the app's ranges and defaults (the settings table, through download-limits.ts).
// Light: loaded at start-up with the program.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CONCURRENCY_LIMITS, RETRIES_LIMITS } from '../core/downloads/download-limits';
import type { ReuseBy } from '../core/downloads/reuse-finder';
import { parseRateLimit } from '../../src-shared/downloads/rate-limit-text';
import { integerParser, parseDurationSeconds } from './option-parsers';

/** The parsed values, as commander gives them. */
export interface EngineOptions {
  concurrency: number;
  retries: number;
  /** Seconds. */
  retryDelay: number;
  allowOtherHosts?: boolean;
  /** Hard-link files already downloaded into another folder instead of copying them. */
  link?: boolean;
  /** --limit-rate: the whole run's cap in bytes per second; null or absent, none. */
  limitRate?: number | null;
}

/** How the engine reuses a file already downloaded into another folder, by --link. */
export function reuseByOf(options: Pick<EngineOptions, 'link'>): ReuseBy {
  return options.link ? 'link' : 'copy';
}

/** --limit-rate's text as a cap, or what to type instead (in commander's words for a bad option). */
function rateLimitOption(text: string): number | null {
  const parsed = parseRateLimit(text);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.reason);
  return parsed.bytesPerSecond;
}

/**
 * Adds --concurrency, --retries, --retry-delay, --limit-rate, --allow-other-hosts and --link. What to do with a file already there
 * differs between the commands (its choices and its default), so each passes its own --on-existing, which is shown
 * in its place among these.
 */
export function addEngineOptions(command: Command, onExisting: Option): Command {
  return command
    .addOption(
      new Option('--concurrency <n>', 'files downloaded at once')
        .default(CONCURRENCY_LIMITS.default)
        .argParser(integerParser(CONCURRENCY_LIMITS.min, CONCURRENCY_LIMITS.max)),
    )
    .addOption(
      new Option('--retries <n>', 'further attempts for a file that fails')
        .default(RETRIES_LIMITS.default)
        .argParser(integerParser(RETRIES_LIMITS.min, RETRIES_LIMITS.max)),
    )
    .addOption(
      new Option('--retry-delay <duration>', 'wait before the first retry; doubles each time, up to a minute').default(1).argParser(parseDurationSeconds),
    )
    .addOption(
      new Option('--limit-rate <speed>', 'cap the download rate of the whole run, over all its connections, e.g. 5M, 5MB/s or 500K').argParser(rateLimitOption),
    )
    .addOption(onExisting)
    .option('--allow-other-hosts', "also download files the listing places on another server than the API's (never with your session)")
    .option('--link', 'a file already downloaded into another folder is hard-linked from there (by default it is copied)');
}
