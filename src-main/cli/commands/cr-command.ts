// `cr N`: when Carrington rotation N starts and ends (UT); `cr --date YYYY-MM-DD[THH:MM:SS]`: the rotation
// under way then. The instants come from the same code as the app's hint and the timeline's axis.
import { carringtonRotationAt, carringtonRotationSpan, carringtonRotationStart } from '../../../src-shared/astro/carrington';
import { checkFilterValue } from '../../../src-shared/filters/filter-rules';
import { DATE_FORMS, parseUtTimestamp } from '../../../src-shared/filters/ut-timestamp';
import { utMinute } from '../../../src-shared/format/ut-minute';
import type { CliIo } from '../cli-context';
import { EXIT_OK, UsageError } from '../exit-codes';
import type { GlobalOptions } from '../global-options';
import { printJson } from '../output/cli-output';
import { localOutput } from './local-output';

export interface CrOptions {
  date?: string;
  json?: boolean;
}

/** Far enough for any archive (rotation 9999 starts in the 26th century), near enough for the Earth's orbit to be known to the second. */
const LAST_ROTATION = 9999;

export async function crCommand(globals: GlobalOptions, io: CliIo, rotation: string | undefined, options: CrOptions): Promise<number> {
  const out = localOutput(globals, io);
  if ((rotation === undefined) === (options.date === undefined)) {
    throw new UsageError('Give a rotation number (mlso-dl cr 2295) or a date (mlso-dl cr --date 2025-03-24), one of the two.');
  }
  const at = options.date === undefined ? undefined : parseDate(options.date);
  const n = at === undefined ? parseRotation(rotation!) : carringtonRotationAt(at.epochMs);
  const { start, end } = carringtonRotationSpan(n);
  if (options.json) {
    printJson(out, { rotation: n, start: isoSecond(start), end: isoSecond(end), ...(at ? { date: isoSecond(at.epochMs) } : {}) });
  } else {
    out.result(`Carrington rotation ${n}\nstarts  ${utMinute(start)} UT\nends    ${utMinute(end)} UT`);
  }
  // A whole day asked for may hold the start of the next rotation: say so, or the answer looks wrong for most of that day.
  if (at && !at.hasTime && end < at.epochMs + 86_400_000) out.info(`Rotation ${n + 1} begins later that day, at ${utMinute(end)} UT.`);
  return EXIT_OK;
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
  if (parsed.value.epochMs < first) throw new UsageError(`--date "${value}" is before rotation 1, which began ${utMinute(first)} UT.`);
  if (parsed.value.epochMs >= carringtonRotationStart(LAST_ROTATION + 1)) throw new UsageError(`--date "${value}" is too far ahead.`);
  return parsed.value;
}

/** 2025-03-02T11:59:56Z: the instant to the second (sunpy's start, to within a second or two). */
function isoSecond(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}Z`;
}
