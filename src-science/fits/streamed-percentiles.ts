// Exact percentiles of an image too large to hold, from a few passes over its rows (each pass decodes them again,
// a band at a time): a radix selection. Every finite value has a 64-bit key that sorts as the values do (the
// double's bits, sign-flipped), and each pass narrows every wanted order statistic to the values whose key shares
// 16 more leading bits with it, by counting those bits' 65,536 possible values (and noting the least and greatest
// value of each: a group of one value, an occulter's zeros or an integer image's level, is then known at once);
// once a group is small enough its values are collected and the statistic selected among them. The result equals `percentiles` on the whole image
// (same ranks, same interpolation); memory is the counts and the collected groups, never the image.
import { checkPercents, interpolated, orderStatistic, ranksFor } from './image-percentiles';

/** Calls `visit` with every row of the image, a band at a time (the bands are reused: read them at once). */
export type ImagePass = (visit: (values: Float32Array | Float64Array) => void) => void;

/** A group of values this large or smaller is collected and selected from: 32 MiB of doubles. */
const COLLECT_LIMIT = 1 << 22;

const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

/** Values whose keys share their first `known` bits (`high`, `low`: the key's two 32-bit halves so far). */
interface Group {
  known: number;
  high: number;
  low: number;
  /** How many values the group holds. */
  size: number;
  /** The wanted order statistics in the group: rank among all values, rank within the group. */
  targets: { rank: number; within: number }[];
  /** Every value of the group, when they are all the same. */
  only?: number;
}

/** Per value of the next 16 key bits: how many values have it, and the least and greatest of them. */
interface Tally {
  counts: Float64Array;
  least: Float64Array;
  greatest: Float64Array;
}

function newTally(): Tally {
  return {
    counts: new Float64Array(DIGITS),
    least: new Float64Array(DIGITS).fill(Number.POSITIVE_INFINITY),
    greatest: new Float64Array(DIGITS).fill(Number.NEGATIVE_INFINITY),
  };
}

function count(tally: Tally, digit: number, value: number): void {
  tally.counts[digit]! += 1;
  if (value < tally.least[digit]!) tally.least[digit] = value;
  if (value > tally.greatest[digit]!) tally.greatest[digit] = value;
}

const scratch = new Float64Array(1);
const halves = new Uint32Array(scratch.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // which half is the high one here
const LOW = 1 - HIGH;

/** The `percents` (0 to 100) of the finite values `pass` visits, as `percentiles` gives them; null when none is finite. */
export function streamedPercentiles(pass: ImagePass, percents: readonly number[], collectLimit: number = COLLECT_LIMIT): number[] | null {
  checkPercents(percents);
  let finite = 0;
  const top = newTally();
  pass((values) => {
    for (let i = 0; i < values.length; i += 1) {
      const value = values[i]!;
      if (!Number.isFinite(value)) continue;
      finite += 1;
      count(top, sortableHigh(value) >>> DIGIT_BITS, value);
    }
  });
  if (finite === 0) return null;
  const selected = new Map<number, number>();
  let groups = narrowed({ known: 0, high: 0, low: 0, size: finite, targets: ranksFor(percents, finite).map((rank) => ({ rank, within: rank })) }, top);
  while (groups.length > 0) {
    for (const group of groups) {
      const value = group.only ?? (group.known === 64 ? valueOfKey(group.high, group.low) : undefined);
      if (value !== undefined) for (const target of group.targets) selected.set(target.rank, value);
    }
    const open = groups.filter((group) => group.only === undefined && group.known < 64);
    const collected = open.filter((group) => group.size <= collectLimit);
    const counted = open.filter((group) => group.size > collectLimit);
    if (open.length === 0) break;
    const arrays = collected.map((group) => ({ group, values: new Float64Array(group.size), filled: 0 }));
    const tallies = counted.map((group) => ({ group, tally: newTally() }));
    pass((values) => {
      for (let i = 0; i < values.length; i += 1) {
        const value = values[i]!;
        if (!Number.isFinite(value)) continue;
        const high = sortableHigh(value);
        const low = sortableLow(value, high);
        for (const entry of arrays) if (inGroup(entry.group, high, low)) entry.values[entry.filled++] = value;
        for (const entry of tallies) if (inGroup(entry.group, high, low)) count(entry.tally, digitAfter(entry.group.known, high, low), value);
      }
    });
    for (const { group, values } of arrays) {
      for (const target of group.targets) selected.set(target.rank, orderStatistic(values, target.within));
    }
    groups = tallies.flatMap(({ group, tally }) => narrowed(group, tally));
  }
  return interpolated(percents, finite, selected);
}

/** The groups one digit narrower that hold `group`'s targets, from the tally of that digit's values. */
function narrowed(group: Group, { counts, least, greatest }: Tally): Group[] {
  const byDigit = new Map<number, Group>();
  let below = 0;
  let digit = 0;
  for (const target of group.targets) {
    while (below + counts[digit]! <= target.within) below += counts[digit++]!;
    let next = byDigit.get(digit);
    if (!next) {
      const known = group.known + DIGIT_BITS;
      next = {
        known,
        high: known <= 32 ? (group.high | (digit << (32 - known))) >>> 0 : group.high,
        low: known <= 32 ? 0 : (group.low | (digit << (64 - known))) >>> 0,
        size: counts[digit]!,
        targets: [],
        ...(least[digit] === greatest[digit] ? { only: least[digit]! } : {}),
      };
      byDigit.set(digit, next);
    }
    next.targets.push({ rank: target.rank, within: target.within - below });
  }
  return [...byDigit.values()];
}

function inGroup(group: Group, high: number, low: number): boolean {
  switch (group.known) {
    case 0:
      return true;
    case 16:
      return high >>> 16 === group.high >>> 16;
    case 32:
      return high === group.high;
    default:
      return high === group.high && low >>> 16 === group.low >>> 16;
  }
}

/** The 16 bits of the key that follow the first `known`. */
function digitAfter(known: number, high: number, low: number): number {
  if (known === 0) return high >>> 16;
  if (known === 16) return high & 0xffff;
  if (known === 32) return low >>> 16;
  return low & 0xffff;
}

/**
 * The high half of a double's sortable key: positive numbers get their sign bit set, negative ones all their bits
 * flipped, so that keys compared as unsigned integers order as the numbers do.
 */
function sortableHigh(value: number): number {
  scratch[0] = value;
  const high = halves[HIGH]!;
  return high & 0x80000000 ? ~high >>> 0 : (high | 0x80000000) >>> 0;
}

/** The low half of the key, given the high half `sortableHigh` just made for the same value. */
function sortableLow(value: number, high: number): number {
  scratch[0] = value;
  const low = halves[LOW]!;
  return high & 0x80000000 ? low : ~low >>> 0;
}

function valueOfKey(high: number, low: number): number {
  if (high & 0x80000000) {
    halves[HIGH] = high & 0x7fffffff;
    halves[LOW] = low;
  } else {
    halves[HIGH] = ~high >>> 0;
    halves[LOW] = ~low >>> 0;
  }
  return scratch[0]!;
}
