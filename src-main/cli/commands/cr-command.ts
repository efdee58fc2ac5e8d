// `cr N`: when Carrington rotation N starts and ends (UT); `cr FIRST-LAST`: the same for each rotation of a range;
// `cr --date YYYY-MM-DD[THH:MM:SS]`: the rotation under way then. The instants come from the same code as the app's
// hint and the timeline's axis: JSON gives them to the millisecond, the text to the nearest minute.
import { carringtonRotationAt, carringtonRotationStart } from '../../../src-science/astro/carrington';
import { checkFilterValue } from '../../../src-shared/filters/filter-rules';
import { DATE_FORMS, parseUtTimestamp } from '../../../src-shared/filters/ut-timestamp';
import { nearestMinute, nearestUtMinute } from '../../../src-shared/format/ut-minute';
import type { CliIo } from '../cli-context';
import { EXIT_OK, UsageError } from '../exit-codes';
import type { GlobalOptions } from '../global-options';
import { printJson, type CliOutput } from '../output/cli-output';
import { columnsTable } from '../output/tables';
import { localOutput } from './local-output';

export interface CrOptions {
  date?: string;
  json?: boolean;
}

/** Far enough for any archive (rotation 9999 starts in the 26th century), near enough for the Earth's orbit to be known to the second. */
const LAST_ROTATION = 9999;
const DAY_MS = 86_400_000;

/** One rotation: its number and its span [start, end), milliseconds since the epoch (UTC). */
interface RotationSpan {
  rotation: number;
  start: number;
  end: number;
}

/** What `cr --json` prints for one rotation. */
interface RotationJson {
  rotation: number;
  start: string;
  end: string;
  date?: string;
}

export async function crCommand(globals: GlobalOptions, io: CliIo, rotation: string | undefined, options: CrOptions): Promise<number> {
  const out = localOutput(globals, io);
  if ((rotation === undefined) === (options.date === undefined)) {
    throw new UsageError('Give a rotation number (mlso-dl cr 2295), a range (mlso-dl cr 2290-2300) or a date (mlso-dl cr --date 2025-03-24), one of them.');
  }
  if (options.date !== undefined) {
    printDateAnswer(out, parseDate(options.date), Boolean(options.json));
    return EXIT_OK;
  }
  const range = parseRotations(rotation!);
  const spans = spansOf(range.first, range.last);
  if (!range.isRange) printRotation(out, spans[0]!, Boolean(options.json));
  else if (options.json)
    printJson(
      out,
      spans.map((span) => rotationJson(span)),
    );
  else out.result(columnsTable(['Rotation', 'Starts (UT)', 'Ends (UT)'], spans.map(rotationRow), { header: !out.quiet }));
  return EXIT_OK;
}

function printDateAnswer(out: CliOutput, at: { epochMs: number; hasTime: boolean }, json: boolean): void {
  const span = spansOf(carringtonRotationAt(at.epochMs))[0]!;
  printRotation(out, span, json, at.epochMs);
  // A whole day asked for may hold the start of the next rotation: say so, or the answer looks wrong for most of that
  // day. Judged by the minute shown, so a rotation that begins in the day's last seconds (shown at 00:00) gets no note.
  if (!at.hasTime && nearestMinute(span.end) < at.epochMs + DAY_MS) {
    out.info(`Rotation ${span.rotation + 1} begins later that day, at ${nearestUtMinute(span.end)} UT.`);
  }
}

function printRotation(out: CliOutput, span: RotationSpan, json: boolean, dateMs?: number): void {
  if (json) printJson(out, rotationJson(span, dateMs));
  else out.result(`Carrington rotation ${span.rotation}\nstarts  ${nearestUtMinute(span.start)} UT\nends    ${nearestUtMinute(span.end)} UT`);
}

function rotationJson(span: RotationSpan, dateMs?: number): RotationJson {
  return {
    rotation: span.rotation,
    start: isoMillisecond(span.start),
    end: isoMillisecond(span.end),
    ...(dateMs === undefined ? {} : { date: isoMillisecond(dateMs) }),
  };
}

function rotationRow(span: RotationSpan): string[] {
  return [String(span.rotation), nearestUtMinute(span.start), nearestUtMinute(span.end)];
}

/** Rotations `first` to `last` with their spans, each start computed once: a rotation ends as the next begins. */
function spansOf(first: number, last = first): RotationSpan[] {
  const starts = Array.from({ length: last - first + 2 }, (_, index) => carringtonRotationStart(first + index));
  return starts.slice(0, -1).map((start, index) => ({ rotation: first + index, start, end: starts[index + 1]! }));
}

/** `2295`, or a range `2290-2300` (both ends included). */
function parseRotations(text: string): { first: number; last: number; isRange: boolean } {
  const dash = text.indexOf('-');
  if (dash <= 0) {
    const n = parseRotation(text);
    return { first: n, last: n, isRange: false };
  }
  const first = parseRotation(text.slice(0, dash));
  const last = parseRotation(text.slice(dash + 1));
  if (first > last) throw new UsageError(`Carrington rotations ${first}-${last}: give the first one first, e.g. 2290-2300.`);
  return { first, last, isRange: true };
}

function parseRotation(value: string): number {
  const checked = checkFilterValue('cr', value);
  if (!checked.ok) throw new UsageError(checked.message);
  const n = Number(checked.value);
  if (n > LAST_ROTATION) throw new UsageError(`Carrington rotation ${n} is too far ahead: use a number from 1 to ${LAST_ROTATION}.`);
  return n;
}

function parseDate(value: string): { epochMs: number; hasTime: boolean } {
  const parsed = parseUtTimestamp(value);
  if (!parsed.ok) {
    const problem = parsed.reason === 'form' ? 'is not a date' : 'is not a real calendar date and time';
    throw new UsageError(`--date "${value}" ${problem}: use ${DATE_FORMS}, e.g. 2025-03-24.`);
  }
  const first = carringtonRotationStart(1);
  if (parsed.value.epochMs < first) throw new UsageError(`--date "${value}" is before rotation 1, which began ${nearestUtMinute(first)} UT.`);
  if (parsed.value.epochMs >= carringtonRotationStart(LAST_ROTATION + 1)) throw new UsageError(`--date "${value}" is too far ahead.`);
  return parsed.value;
}

/** 2025-03-02T11:59:56.725Z: the instant to the millisecond, as computed (sunpy's start within 1.1 s). */
function isoMillisecond(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
