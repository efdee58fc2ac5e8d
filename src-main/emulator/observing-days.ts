// Which days are observed and when each instrument's exposures happen on a day: the skeleton of the catalogue.
import { hash32, seededRandom, randomInt } from './seeded-random';
import { SECONDS_PER_DAY, dayStart, formatDay } from './timestamps';
import type { WaveRegion } from './instruments';

// The documented example download URL of 2025-03-24 carries obsday-id=10137; ids count observing days upwards.
const REFERENCE_DAY = dayStart('2025-03-24');
const REFERENCE_OBSDAY_ID = 10137;

const HOUR = 3600;
const KCOR_DRIFT_SALT = 2;
const MINUTE = 60;

/** Epoch seconds of 00:00 UT of each synthetic observing day, oldest first. */
export function observingDays(lastDay: string, days: number): number[] {
  const last = dayStart(lastDay);
  return Array.from({ length: days }, (_, i) => last - (days - 1 - i) * SECONDS_PER_DAY);
}

export function obsdayIdOf(dayStartSeconds: number): number {
  return REFERENCE_OBSDAY_ID + Math.round((dayStartSeconds - REFERENCE_DAY) / SECONDS_PER_DAY);
}

/** A generator of schedule jitter that depends only on the seed, the instrument and the day. */
function dayRandom(seed: number, instrument: string, day: number): () => number {
  return seededRandom(hash32(`${instrument}/${formatDay(day)}`, seed));
}

/**
 * KCor pB exposure times of one day (the NRGF images share them). KCor observes from about 17:50 to 21:05 UT
 * (Hawaiian morning) every `cadence` seconds, now and then a second late, with a few cloud gaps. The sequence is
 * anchored at 21:03:04, the first file of the documented example query 21:03:00-21:04:00, so that query lists four
 * files here too.
 */
export function kcorExposureTimes(day: number, cadence: number, seed: number): number[] {
  const random = dayRandom(seed, 'kcor', day);
  const start = day + 17 * HOUR + 50 * MINUTE + randomInt(random, -8 * MINUTE, 8 * MINUTE);
  const end = day + 21 * HOUR + 5 * MINUTE + randomInt(random, -MINUTE, 6 * MINUTE);
  const anchor = day + 21 * HOUR + 3 * MINUTE + 4;
  const gaps = cloudGaps(random, start + 20 * MINUTE, day + 20 * HOUR + 30 * MINUTE);
  // About one step in eight takes a second longer. Drift must not make neighbours collide, so only cadences of a few
  // seconds get it. It does not depend on the seed: salt 2 is the first that reproduces the documented 2025-03-24
  // times 21:03:04, :19, :34, :50.
  const step = (index: number): number => cadence + (cadence >= 4 && hash32(`kcor-step/${day}/${index}`, KCOR_DRIFT_SALT) % 8 === 0 ? 1 : 0);

  const before: number[] = [];
  for (let t = anchor, i = -1; t >= start; i--) {
    before.push(t);
    t -= step(i);
  }
  const times = before.reverse();
  for (let t = anchor + step(0), i = 1; t <= end; i++) {
    times.push(t);
    t += step(i);
  }
  return times.filter((t) => t >= start && !gaps.some(([from, to]) => t >= from && t < to));
}

/** Zero to two gaps of 2-15 minutes inside [from, to). */
function cloudGaps(random: () => number, from: number, to: number): Array<[number, number]> {
  const count = randomInt(random, 0, 2);
  const gaps: Array<[number, number]> = [];
  for (let i = 0; i < count && to > from; i++) {
    const at = from + Math.floor(random() * (to - from));
    gaps.push([at, at + randomInt(random, 2 * MINUTE, 15 * MINUTE)]);
  }
  return gaps;
}

type UcompPlanKind = 'synoptic' | 'waves';

export interface UcompExposure {
  time: number;
  waveRegion: WaveRegion;
  obsPlan: string;
  planKind: UcompPlanKind;
  wavelengths: number;
  /** Counts the day's observing-plan blocks, so per-block products (density) can group exposures. */
  block: number;
}

const SYNOPTIC_PLAN = 'synoptic-original-lines.cbk';
const SYNOPTIC_CYCLE: ReadonlyArray<readonly [WaveRegion, number]> = [
  ['1074', 5],
  ['1079', 5],
  ['789', 5],
  ['637', 3],
  ['706', 3],
];
const WAVES_REGIONS: readonly WaveRegion[] = ['1074', '789'];

/**
 * UCoMP exposures of one day: about 18:00 to 23:00 UT in alternating blocks of the synoptic programme (cycling
 * through the wave regions, two exposures each, ~6 cadences apart) and of a waves programme (one region, every
 * ~2 cadences).
 */
export function ucompExposures(day: number, cadence: number, seed: number): UcompExposure[] {
  const random = dayRandom(seed, 'ucomp', day);
  const end = day + 23 * HOUR + randomInt(random, -20 * MINUTE, 20 * MINUTE);
  let t = day + 18 * HOUR + randomInt(random, -15 * MINUTE, 15 * MINUTE);
  const exposures: UcompExposure[] = [];
  const interval = (base: number): number => Math.max(1, Math.round(base * cadence * (0.9 + 0.2 * random())));

  for (let block = 0; t <= end; block++) {
    if (block % 2 === 0) {
      const blockEnd = t + randomInt(random, 40 * MINUTE, 60 * MINUTE);
      for (let cycle = 0; t <= blockEnd && t <= end; cycle++) {
        const [waveRegion, wavelengths] = SYNOPTIC_CYCLE[cycle % SYNOPTIC_CYCLE.length] ?? ['1074', 5];
        for (let repeat = 0; repeat < 2 && t <= end; repeat++) {
          exposures.push({ time: t, waveRegion, obsPlan: SYNOPTIC_PLAN, planKind: 'synoptic', wavelengths, block });
          t += interval(6);
        }
      }
    } else {
      const waveRegion = WAVES_REGIONS[(block >> 1) % WAVES_REGIONS.length] ?? '1074';
      const blockEnd = t + randomInt(random, 20 * MINUTE, 35 * MINUTE);
      while (t <= blockEnd && t <= end) {
        exposures.push({ time: t, waveRegion, obsPlan: `waves-${waveRegion}.cbk`, planKind: 'waves', wavelengths: 3, block });
        t += interval(2);
      }
    }
    t += randomInt(random, 2 * MINUTE, 6 * MINUTE); // changing programme takes a few minutes
  }
  return exposures;
}
