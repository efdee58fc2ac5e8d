// The files UCoMP produces on one observing day, named in the real patterns (20250324.200652.ucomp.789.l2.fts),
// and the image extensions each of them holds.
import { compactDateTime } from './timestamps';
import type { PlannedFile } from './planned-file';
import type { UcompExposure } from './observing-days';
import type { WaveRegion } from './instruments';

const UCOMP_FILE_PRODUCTS = ['l1', 'intensity', 'mean', 'median', 'sigma', 'l2', 'l2average', 'density', 'dynamics', 'polarization'] as const;

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

// Rest wavelengths of the UCoMP regions' lines, in nm.
export const LINE_CENTRES: Record<WaveRegion, number> = { '637': 637.4, '706': 706.2, '789': 789.4, '1074': 1074.7, '1079': 1079.8 };
/** Spacing of the tunings across a line, in nm: plausible, not UCoMP's exact programme. */
const TUNING_STEP = 0.06;

// Real UCoMP files are multi-extension FITS: an empty primary header, then one image extension per wavelength
// (level 1) or per quantity (level 2), each named by EXTNAME. The level 2 names paraphrase the UCoMP pipeline's
// documentation of its products; the count of six is chosen because the reference listing's 789 nm level 2 file
// (31,501,440 bytes) holds six 1280 x 1024 float images. Real level 1 extensions hold IQUV cubes and backgrounds;
// the emulator keeps one plane per wavelength, which is what a quick look shows, so its files stay small.
const LEVEL2_QUANTITIES = ['Center wavelength intensity', 'Enhanced intensity', 'Peak intensity', 'LOS velocity', 'Line width', 'Weighted average I'];
const DYNAMICS_QUANTITIES = ['Peak intensity', 'Enhanced intensity', 'Doppler velocity', 'Line width'];
const POLARIZATION_QUANTITIES = ['Average intensity', 'Enhanced average intensity', 'Average Q', 'Average U', 'Average log(L)', 'Azimuth', 'Radial azimuth'];
/** What each level 1 product holds at every wavelength: "Corona I 789.40 nm". */
const PER_WAVELENGTH: Readonly<Record<string, string>> = { l1: 'Corona I', intensity: 'Intensity', mean: 'Mean I', median: 'Median I', sigma: 'Sigma I' };

/** EXTNAME of every image extension of a UCoMP file, in order. */
export function ucompExtensionNames(file: Pick<PlannedFile, 'product' | 'filename' | 'waveRegion' | 'wavelengths'>): string[] {
  const perWavelength = PER_WAVELENGTH[file.product];
  if (perWavelength !== undefined) {
    const count = Math.max(1, file.wavelengths ?? 1);
    const centre = LINE_CENTRES[file.waveRegion ?? '1074'];
    return Array.from({ length: count }, (_, i) => `${perWavelength} ${(centre + (i - (count - 1) / 2) * TUNING_STEP).toFixed(2)} nm`);
  }
  switch (file.product) {
    case 'l2average': {
      // Daily averages of level 2: 20250324.ucomp.789.l2.synoptic.mean.fts
      const statistic = STATISTICS.find((name) => file.filename.endsWith(`.${name}.fts`)) ?? 'mean';
      return LEVEL2_QUANTITIES.map((quantity) => `${quantity} (${statistic})`);
    }
    case 'dynamics':
      return DYNAMICS_QUANTITIES;
    case 'polarization':
      return POLARIZATION_QUANTITIES;
    case 'density':
      return ['Density'];
    default:
      return LEVEL2_QUANTITIES;
  }
}
