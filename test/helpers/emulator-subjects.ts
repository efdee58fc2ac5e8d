// The emulator's files that tests make directly (fitsBytes): one KCor pB image and one UCoMP level 2 file of five
// tunings, as the emulator's catalogue names and dates them.
import type { FitsSubject } from '../../src-main/emulator/synthetic-fits';

export const KCOR_PB: FitsSubject = { instrument: 'kcor', product: 'pb', filename: '20250324_210304_kcor_l2_pb.fts', dateObs: '2025-03-24T21:03:04' };

export const UCOMP_L2: FitsSubject = {
  instrument: 'ucomp',
  product: 'l2',
  filename: '20250324.200652.ucomp.789.l2.fts',
  dateObs: '2025-03-24T20:06:52',
  waveRegion: '789',
  wavelengths: 5,
};
