// What is drawn with an image besides its pixels: the colour map, the limb, circles at chosen distances from Sun
// centre, solar north and a colour bar. Remembered per instrument (a KCor image and a UCoMP one are read differently),
// in the window's local storage: a view preference, not a setting the core needs.
import { isColormap, type ColormapName } from '../../src-science/fits/colormaps';

export interface ViewOptions {
  colormap: ColormapName;
  limb: boolean;
  north: boolean;
  /** Circles at these distances from Sun centre, in solar radii (the limb aside). */
  circles: number[];
  colorBar: boolean;
}

export const DEFAULT_VIEW: ViewOptions = { colormap: 'grey', limb: false, north: false, circles: [], colorBar: false };

/** Circles a user may ask for: out to what a coronagraph shows, a few at once. */
const MOST_CIRCLES = 8;
const FARTHEST = 30;
const KEY_PREFIX = 'mlso.view.';

/** The distances the overlay draws: the limb first when shown, then the circles. */
export function overlayRadii(view: ViewOptions): number[] {
  return [...(view.limb ? [1] : []), ...view.circles];
}

/** Whether anything is drawn over the image (so the overlay needs asking for). */
export function wantsOverlay(view: ViewOptions): boolean {
  return view.limb || view.north || view.circles.length > 0;
}

/** "1.5, 2, 3" as circles, or the rule it breaks. */
export function parseCircles(text: string): number[] | { problem: string } {
  const parts = text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const values = parts.map(Number);
  if (values.some((value) => !Number.isFinite(value) || value <= 0 || value > FARTHEST)) {
    return { problem: `Give distances in solar radii above 0 and up to ${FARTHEST}, separated by commas, such as 1.5, 2, 3.` };
  }
  if (values.length > MOST_CIRCLES) return { problem: `At most ${MOST_CIRCLES} circles.` };
  return [...new Set(values)].sort((a, b) => a - b);
}

export function circlesText(circles: readonly number[]): string {
  return circles.join(', ');
}

/** The instrument a file's header names (INSTRUME, else TELESCOP), as preferences are kept under it. */
export function instrumentKey(cards: readonly { keyword: string; value: string }[]): string {
  const named = cards.find((card) => card.keyword === 'INSTRUME') ?? cards.find((card) => card.keyword === 'TELESCOP');
  return viewKey(named?.value);
}

/** One rule for the key of an instrument's name, wherever the name comes from. */
export function viewKey(name: string | null | undefined): string {
  return name?.trim().toLowerCase() || 'other';
}

/** The view last used for an instrument's images, or the default; anything unreadable in storage is ignored. */
export function loadView(instrument: string, storage: Pick<Storage, 'getItem'> | undefined = globalStorage()): ViewOptions {
  try {
    const stored = JSON.parse(storage?.getItem(KEY_PREFIX + instrument) ?? 'null') as Partial<Record<keyof ViewOptions, unknown>> | null;
    if (!stored || typeof stored !== 'object') return DEFAULT_VIEW;
    const circles = Array.isArray(stored.circles) ? parseCircles(stored.circles.join(',')) : [];
    return {
      colormap: isColormap(stored.colormap) ? stored.colormap : DEFAULT_VIEW.colormap,
      limb: stored.limb === true,
      north: stored.north === true,
      circles: Array.isArray(circles) ? circles : [],
      colorBar: stored.colorBar === true,
    };
  } catch {
    return DEFAULT_VIEW;
  }
}

export function saveView(instrument: string, view: ViewOptions, storage: Pick<Storage, 'setItem'> | undefined = globalStorage()): void {
  try {
    storage?.setItem(KEY_PREFIX + instrument, JSON.stringify(view));
  } catch {
    // Storage full or refused: the choice still holds for this session.
  }
}

function globalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
