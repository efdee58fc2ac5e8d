// A card's value as text a person reads, keeping its FITS type: the real 32768.0 is not shown as the integer
// 32768, and an integer past 2^53 keeps its exact digits (BLANK = -9223372036854775808, not ...776000).
import type { FitsCard } from './fits-cards';

/** 32768 -> "32768.0", -0 -> "-0.0", 1e47 -> "1e+47", 0.5 -> "0.5": a real always reads as one (Infinity as itself). */
export function realText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** The value as the app's header list shows it: T/F, exact integers, reals with a point, complex as (re, im). */
export function cardValueText(card: FitsCard): string {
  if (card.value === null) return '';
  if (card.type === 'integer') return card.exactInteger ?? String(card.value);
  if (card.type === 'real' && typeof card.value === 'number') return realText(card.value);
  if (card.type === 'complex' && card.complex) return `(${realText(card.complex[0])}, ${realText(card.complex[1])})`;
  if (typeof card.value === 'boolean') return card.value ? 'T' : 'F';
  return String(card.value);
}
