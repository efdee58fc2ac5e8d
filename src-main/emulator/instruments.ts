// Static metadata of the two instruments and their products, as the real service documents them
// (docs/endpoints.md and src/mlso/api/client.py of NCAR/mlso-api-client).

export type InstrumentId = 'kcor' | 'ucomp';

export interface ProductDefinition {
  id: string;
  title: string;
  description: string;
  filters: readonly string[];
}

export interface InstrumentDefinition {
  id: InstrumentId;
  name: string;
  doi: string;
  landingPage: string;
  /** First observation of the real instrument: what the API reports, not where the synthetic catalogue starts. */
  startDate: string;
  products: readonly ProductDefinition[];
}

const DATE_FILTERS = ['start-date', 'end-date', 'cr', 'every'] as const;
const UCOMP_FILTERS = [...DATE_FILTERS, 'wave-region', 'obs-plan'] as const;

const kcorProduct = (id: string, title: string, description: string): ProductDefinition => ({
  id,
  title,
  description,
  filters: DATE_FILTERS,
});
const ucompProduct = (id: string, title: string, description: string, filters: readonly string[] = UCOMP_FILTERS): ProductDefinition => ({
  id,
  title,
  description,
  filters,
});

const KCOR: InstrumentDefinition = {
  id: 'kcor',
  name: 'COSMO K-Coronagraph (KCor)',
  doi: 'https://doi.org/10.5065/D69G5JV8',
  landingPage: 'https://www2.hao.ucar.edu/mlso/instruments/cosmo-k-coronagraph-k-cor',
  startDate: '2013-09-30T18:57:54',
  products: [
    kcorProduct('pb', 'pB', 'polarized brightness image'),
    kcorProduct('nrgf', 'NRGF', 'Normalized Radially Graded Filtered image'),
    kcorProduct('nrgfavg', 'NRGF avg', 'NRGF average image'),
    kcorProduct('pbavg', 'pB avg', 'pB average image'),
    kcorProduct('pbextavg', 'pB ext avg', 'daily pB average image'),
    kcorProduct('nrgfextavg', 'NRGF ext avg', 'NRGF extended average image'),
    kcorProduct('pbavgenh', 'pB avg enh', 'enhanced average image'),
    kcorProduct('pbextavgenh', 'pB ext avg enh', 'enhanced extended average image'),
    kcorProduct('nrgfavgenh', 'NRGF avg enh', 'NRGF enhanced average image'),
    kcorProduct('nrgfextavgenh', 'NRGF ext avg enh', 'NRGF enhanced extended average image'),
    kcorProduct('pbdiff', 'pB diff', 'pB difference image'),
    kcorProduct('nrgf+diff', 'NRGF + pB diff', 'NRGF and difference image'),
    kcorProduct('all', 'All', 'all products'),
  ],
};

const UCOMP: InstrumentDefinition = {
  id: 'ucomp',
  name: 'Upgraded Coronal Multi-Polarimeter (UCoMP)',
  // Placeholders: the documents quoted above do not show UCoMP's DOI or landing page; these follow KCor's patterns.
  doi: 'https://doi.org/10.26024/g8p7-wy42',
  landingPage: 'https://www2.hao.ucar.edu/mlso/instruments/upgraded-coronal-multi-polarimeter-ucomp',
  startDate: '2021-07-15T17:31:43',
  products: [
    ucompProduct('l1', 'Level 1', 'IQUV and backgrounds for various wavelengths'),
    ucompProduct('intensity', 'Level 1 intensity', 'intensity-only level 1'),
    ucompProduct('mean', 'Level 1 mean', 'mean of level 1 files'),
    ucompProduct('median', 'Level 1 median', 'median of level 1 files'),
    ucompProduct('sigma', 'Level 1 sigma', 'standard deviation of level 1 files'),
    ucompProduct('l2', 'Level 2', 'level 2 products'),
    ucompProduct('l2average', 'Level 2 average', 'mean, median, standard deviation of level 2 files'),
    ucompProduct('density', 'Density', 'density', DATE_FILTERS),
    ucompProduct('dynamics', 'Dynamics', 'level 2 dynamics products'),
    ucompProduct('polarization', 'Polarization', 'level 2 polarization products'),
    ucompProduct('all', 'All', 'all products'),
  ],
};

/** In the order the real `/v1/instruments` answers: not sorted. */
export const INSTRUMENTS: readonly InstrumentDefinition[] = [UCOMP, KCOR];

export const WAVE_REGIONS = ['637', '706', '789', '1074', '1079'] as const;
export type WaveRegion = (typeof WAVE_REGIONS)[number];

export function findInstrument(id: string): InstrumentDefinition | undefined {
  return INSTRUMENTS.find((instrument) => instrument.id === id);
}

export function findProduct(instrument: InstrumentDefinition, productId: string): ProductDefinition | undefined {
  return instrument.products.find((product) => product.id === productId);
}

/** The products that hold files of their own (everything but `all`). */
export function fileProducts(instrument: InstrumentDefinition): ProductDefinition[] {
  return instrument.products.filter((product) => product.id !== 'all');
}
