import type { WaveRegion } from './instruments';

/** A file as the day builders plan it; the catalogue adds what depends on the options (size, obsday id, strings). */
export interface PlannedFile {
  product: string;
  filename: string;
  time: number;
  waveRegion?: WaveRegion;
  obsPlan?: string;
  wavelengths?: number;
}
