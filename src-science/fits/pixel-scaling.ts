// How an image's stored samples become its values (standard 4.0, section 5.3), said in a few words for the
// header summary: "int16", "int16, rescaled to uint16" (an unsigned image stored with the BZERO offset of
// Table 11), "int16, scaled to float (BSCALE 0.5, BZERO 10)".
import type { FitsCard } from './fits-cards';

const SAMPLE_NAMES: Readonly<Record<number, string>> = { 8: 'uint8', 16: 'int16', 32: 'int32', 64: 'int64', [-32]: 'float32', [-64]: 'float64' };

/** The BZERO that stores each unsigned (or, for bytes, signed) type in the integers of the other (Table 11). */
const OFFSET_TYPES: Readonly<Record<number, { bzero: number; type: string }>> = {
  8: { bzero: -128, type: 'int8' },
  16: { bzero: 2 ** 15, type: 'uint16' },
  32: { bzero: 2 ** 31, type: 'uint32' },
  64: { bzero: 2 ** 63, type: 'uint64' }, // the double nearest 9223372036854775808 is that number exactly
};

/** The samples of an image with this BITPIX and these cards, as described above. */
export function describeSamples(bitpix: number, cards: readonly FitsCard[]): string {
  const sample = SAMPLE_NAMES[bitpix] ?? `BITPIX ${bitpix}`;
  const bscale = scalingCard(cards, 'BSCALE', 1);
  const bzero = scalingCard(cards, 'BZERO', 0);
  if (!bscale.given && !bzero.given) return sample;
  const offset = OFFSET_TYPES[bitpix];
  if (offset && !bscale.given && bzero.value === offset.bzero) return `${sample}, rescaled to ${offset.type}`;
  const factors = [bscale, bzero].filter((factor) => factor.given).map((factor) => `${factor.keyword} ${factor.text}`);
  return `${sample}, scaled${bitpix > 0 ? ' to float' : ''} (${factors.join(', ')})`;
}

/**
 * Whether an image's values are integers as astropy gives them (an integer dtype): stored integers left as they are
 * or offset to the unsigned (for bytes, signed) type of Table 11. Any other scaling, and BLANK (an integer has no
 * NaN to stand for it), gives floats.
 */
export function holdsIntegers(bitpix: number, bscale: number, bzero: number, hasBlank: boolean): boolean {
  if (bitpix <= 0 || bscale !== 1) return false;
  return (bzero === 0 && !hasBlank) || bzero === OFFSET_TYPES[bitpix]?.bzero;
}

interface Scaling {
  keyword: string;
  value: number;
  /** Whether it changes anything: present, and not the value that leaves samples as they are. */
  given: boolean;
  /** As a person reads it: an integer past 2^53 in its exact digits. */
  text: string;
}

/** BSCALE or BZERO (its first card, as a header's values are read); one that is no number is the image reader's to refuse. */
function scalingCard(cards: readonly FitsCard[], keyword: 'BSCALE' | 'BZERO', neutral: number): Scaling {
  const card = cards.find((candidate) => candidate.keyword === keyword && candidate.value !== null);
  const value = typeof card?.value === 'number' && Number.isFinite(card.value) ? card.value : neutral;
  return { keyword, value, given: value !== neutral, text: card?.exactInteger ?? String(value) };
}
