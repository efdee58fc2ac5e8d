// The files KCor produces on one observing day, named in the real patterns (20250324_210304_kcor_l2_pb.fts).
import { compactDateTime } from './timestamps';
import type { PlannedFile } from './planned-file';

/** File-name suffix per product; every product has its own, so names stay unique across products. */
const KCOR_SUFFIXES: Readonly<Record<string, string>> = {
  pb: 'pb',
  nrgf: 'nrgf',
  pbavg: 'pb_avg',
  nrgfavg: 'nrgf_avg',
  pbextavg: 'pb_extavg',
  nrgfextavg: 'nrgf_extavg',
  pbavgenh: 'pb_avg_enhanced',
  pbextavgenh: 'pb_extavg_enhanced',
  nrgfavgenh: 'nrgf_avg_enhanced',
  nrgfextavgenh: 'nrgf_extavg_enhanced',
  pbdiff: 'pb_diff',
  'nrgf+diff': 'nrgf_and_pb_diff',
};

const kcorName = (time: number, product: string): string => {
  const [date, clock] = compactDateTime(time);
  return `${date}_${clock}_kcor_l2_${KCOR_SUFFIXES[product]}.fts`;
};

/**
 * KCor files of a day, keyed by product; only product `only` when given (naming files is the costly part).
 * `exposures` are the day's pB times (see kcorExposureTimes).
 */
export function kcorDayFiles(exposures: readonly number[], cadence: number, only?: string): Map<string, PlannedFile[]> {
  const products = Object.keys(KCOR_SUFFIXES).filter((p) => only === undefined || p === only);
  const files = new Map<string, PlannedFile[]>(products.map((p) => [p, []]));
  const add = (product: string, time: number): void => {
    files.get(product)?.push({ product, filename: kcorName(time, product), time });
  };
  // Averages (and their enhanced versions) cover ~2.5 minutes of exposures and are named after the first one;
  // difference images fall halfway between averages and need an earlier average to subtract.
  const perAverage = Math.max(1, Math.round(150 / cadence));
  exposures.forEach((time, index) => {
    add('pb', time);
    add('nrgf', time);
    if (index % perAverage === 0) {
      for (const product of ['pbavg', 'nrgfavg', 'pbavgenh', 'nrgfavgenh']) add(product, time);
    }
    if (index >= perAverage && index % perAverage === Math.floor(perAverage / 2)) {
      add('pbdiff', time);
      add('nrgf+diff', time);
    }
  });
  // The extended averages are daily: one each, named after the first exposure of the day.
  const first = exposures[0];
  if (first !== undefined) {
    for (const product of ['pbextavg', 'nrgfextavg', 'pbextavgenh', 'nrgfextavgenh']) add(product, first);
  }
  return files;
}
