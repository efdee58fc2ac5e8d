// The synthetic catalogue: which files exist, built lazily per (instrument, product, day) and cached, so a
// 130-day KCor pB listing (~100,000 files) is built once and then served from memory.
import { findInstrument, fileProducts, type InstrumentId, type InstrumentDefinition } from './instruments';
import { kcorExposureTimes, obsdayIdOf, observingDays, ucompExposures, type UcompExposure } from './observing-days';
import { kcorDayFiles } from './kcor-files';
import { ucompDayFiles } from './ucomp-files';
import { MEASURED_GZIP_RATIO, rawFitsSize, type FitsSubject } from './synthetic-fits';
import { unitHash } from './seeded-random';
import { dayStart, formatTimestamp } from './timestamps';
import type { PlannedFile } from './planned-file';
import type { EmulatorOptions } from './options';

export interface FileRecord extends FitsSubject {
  time: number;
  obsdayId: number;
  /** Listed size: an estimate of the gzipped size, sometimes 0 as the real service's is. */
  filesize: number;
  wavelengths?: number;
}

export type CatalogOptions = Pick<EmulatorOptions, 'lastDay' | 'days' | 'cadenceSeconds' | 'imageSize' | 'ucompImageSize' | 'zeroFilesizeRate' | 'seed'>;

// The date prefix of both naming patterns: 20250324_210304_kcor... and 20250324.200652.ucomp... / 20250324.ucomp...
const NAME_DATE = /^(\d{4})(\d{2})(\d{2})[._]/;

export class Catalog {
  private readonly days: number[];
  private readonly daySet: Set<number>;
  private readonly exposures = new Map<string, number[] | UcompExposure[]>();
  private readonly dayProducts = new Map<string, FileRecord[]>();
  private readonly products = new Map<string, FileRecord[]>();
  private readonly byName = new Map<string, Map<string, FileRecord>>();

  constructor(private readonly options: CatalogOptions) {
    this.days = observingDays(options.lastDay, options.days);
    this.daySet = new Set(this.days);
  }

  /** Every file of a product (or of all products for `all`) in ascending date-obs order. The array is shared: do not mutate. */
  files(instrument: InstrumentDefinition, productId: string): FileRecord[] {
    const key = `${instrument.id}/${productId}`;
    let files = this.products.get(key);
    if (!files) {
      files = this.days.flatMap((day) => this.recordsOfDay(instrument, productId, day));
      this.products.set(key, files);
    }
    return files;
  }

  /** The file named `filename` (as listed, without .gz), or undefined when the catalogue has no such file. */
  find(instrumentId: string, filename: string): FileRecord | undefined {
    const instrument = findInstrument(instrumentId);
    const m = NAME_DATE.exec(filename);
    if (!instrument || !m) return undefined;
    const day = dayStart(`${m[1]}-${m[2]}-${m[3]}`);
    if (!this.daySet.has(day)) return undefined;
    const key = `${instrument.id}/${day}`;
    let index = this.byName.get(key);
    if (!index) {
      index = new Map(this.recordsOfDay(instrument, 'all', day).map((record) => [record.filename, record]));
      this.byName.set(key, index);
    }
    return index.get(filename);
  }

  /** date-obs of the instrument's latest file: the `end-date` of the instrument object. */
  endDate(instrument: InstrumentDefinition): string {
    for (let i = this.days.length - 1; i >= 0; i--) {
      const records = this.recordsOfDay(instrument, 'all', this.days[i] ?? 0);
      const last = records.reduce((latest, record) => Math.max(latest, record.time), -Infinity);
      if (Number.isFinite(last)) return formatTimestamp(last);
    }
    return instrument.startDate;
  }

  private recordsOfDay(instrument: InstrumentDefinition, productId: string, day: number): FileRecord[] {
    const key = `${instrument.id}/${productId}/${day}`;
    let records = this.dayProducts.get(key);
    if (records) return records;
    if (productId === 'all') {
      const order = new Map(instrument.products.map((p, i) => [p.id, i]));
      records = fileProducts(instrument)
        .flatMap((product) => this.recordsOfDay(instrument, product.id, day))
        .sort((a, b) => a.time - b.time || (order.get(a.product) ?? 0) - (order.get(b.product) ?? 0) || (a.filename < b.filename ? -1 : 1));
    } else {
      const planned = this.plannedFiles(instrument.id, day, productId).get(productId) ?? [];
      records = planned.map((file) => this.record(instrument.id, file, day)).sort((a, b) => a.time - b.time || (a.filename < b.filename ? -1 : 1));
    }
    this.dayProducts.set(key, records);
    return records;
  }

  private plannedFiles(instrument: InstrumentId, day: number, productId: string): Map<string, PlannedFile[]> {
    const { cadenceSeconds, seed } = this.options;
    const key = `${instrument}/${day}`;
    if (instrument === 'kcor') {
      let times = this.exposures.get(key) as number[] | undefined;
      if (!times) this.exposures.set(key, (times = kcorExposureTimes(day, cadenceSeconds, seed)));
      return kcorDayFiles(times, cadenceSeconds, productId);
    }
    let exposures = this.exposures.get(key) as UcompExposure[] | undefined;
    if (!exposures) this.exposures.set(key, (exposures = ucompExposures(day, cadenceSeconds, seed)));
    return ucompDayFiles(exposures, productId);
  }

  private record(instrument: InstrumentId, file: PlannedFile, day: number): FileRecord {
    const record: FileRecord = {
      instrument,
      product: file.product,
      filename: file.filename,
      time: file.time,
      dateObs: formatTimestamp(file.time),
      obsdayId: obsdayIdOf(day),
      filesize: 0,
    };
    if (file.waveRegion !== undefined) record.waveRegion = file.waveRegion;
    if (file.obsPlan !== undefined) record.obsPlan = file.obsPlan;
    if (file.wavelengths !== undefined) record.wavelengths = file.wavelengths;
    record.filesize = this.listedSize(record);
    return record;
  }

  /** Deterministic per file: ±2% around the measured gzip ratio, or 0 for a `zeroFilesizeRate` share of files. */
  private listedSize(record: FileRecord): number {
    const { filename } = record;
    if (unitHash(filename, 0x512e) < this.options.zeroFilesizeRate) return 0;
    const ratio = MEASURED_GZIP_RATIO[record.instrument] * (0.98 + 0.04 * unitHash(filename, 0x5a1e));
    return Math.round(rawFitsSize(record, this.options) * ratio);
  }
}
