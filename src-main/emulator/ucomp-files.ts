// The files UCoMP produces on one observing day, named in the real patterns (20250324.200652.ucomp.789.l2.fts).
import { compactDateTime } from './timestamps';
import type { PlannedFile } from './planned-file';
import type { UcompExposure } from './observing-days';

export const UCOMP_FILE_PRODUCTS = [
  'l1',
  'intensity',
  'mean',
  'median',
  'sigma',
  'l2',
  'l2average',
  'density',
  'dynamics',
  'polarization',
] as const;

const STATISTICS = ['mean', 'median', 'sigma'] as const;

/** UCoMP files of a day, keyed by product; only product `only` when given. */
export function ucompDayFiles(exposures: readonly UcompExposure[], only?: string): Map<string, PlannedFile[]> {
  const products = UCOMP_FILE_PRODUCTS.filter((p) => only === undefined || p === only);
  const files = new Map<string, PlannedFile[]>(products.map((p) => [p, []]));
  const wanted = (product: string): boolean => files.has(product);
  // Names are built only for wanted products: naming is most of the cost of a day.
  const add = (product: string, name: () => string, source: UcompExposure): void => {
    if (!wanted(product)) return;
    files.get(product)?.push({
      product,
      filename: name(),
      time: source.time,
      waveRegion: source.waveRegion,
      obsPlan: source.obsPlan,
      wavelengths: source.wavelengths,
    });
  };

  // Per exposure: level 1 (full and intensity-only), level 2 and its dynamics; polarization needs the synoptic
  // programme's longer integrations.
  const perExposure = ['l1', 'intensity', 'l2', 'dynamics', 'polarization'].some(wanted);
  for (const exposure of perExposure ? exposures : []) {
    const [date, clock] = compactDateTime(exposure.time);
    const stem = `${date}.${clock}.ucomp.${exposure.waveRegion}`;
    add('l1', () => `${stem}.l1.${exposure.wavelengths}.fts`, exposure);
    add('intensity', () => `${stem}.l1.${exposure.wavelengths}.intensity.fts`, exposure);
    add('l2', () => `${stem}.l2.fts`, exposure);
    add('dynamics', () => `${stem}.dynamics.fts`, exposure);
    if (exposure.planKind === 'synoptic') add('polarization', () => `${stem}.polarization.fts`, exposure);
  }

  // Daily statistics per wave region and programme kind, dated by the group's first exposure.
  const groups = new Map<string, UcompExposure>();
  for (const exposure of exposures) {
    const key = `${exposure.waveRegion}.${exposure.planKind}`;
    if (!groups.has(key)) groups.set(key, exposure);
  }
  for (const [key, first] of groups) {
    const [date] = compactDateTime(first.time);
    for (const statistic of STATISTICS) {
      add(statistic, () => `${date}.ucomp.${key.replace('.', '.l1.')}.${statistic}.fts`, first);
      add('l2average', () => `${date}.ucomp.${key.replace('.', '.l2.')}.${statistic}.fts`, first);
    }
  }

  // Density needs both infrared lines: one per synoptic block, at its first 1079 exposure.
  const densityBlocks = new Set<number>();
  for (const exposure of exposures) {
    if (exposure.waveRegion !== '1079' || exposure.planKind !== 'synoptic' || densityBlocks.has(exposure.block)) continue;
    densityBlocks.add(exposure.block);
    const [date, clock] = compactDateTime(exposure.time);
    add('density', () => `${date}.${clock}.ucomp.1074-1079.density.fts`, { ...exposure, waveRegion: '1074' });
  }
  return files;
}
