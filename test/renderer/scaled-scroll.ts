// A virtualized table's scroll element in jsdom, which lays nothing out: its view is the 600 px SparseRows assumes
// then, its content the spacer under the rows, and its scrollTop kept within them, as a browser keeps it.

/** The view's height SparseRows assumes when the scroll element reports none. */
export const VIEW = 600;

/** The height the scroll element gives its content: the spacer under the rows. */
export const spacerOf = (table: HTMLElement): number => parseFloat(table.querySelector<HTMLElement>('.canvas')!.style.height);

/** A scrollTop a browser would allow: from 0 to the spacer's height less the view's. */
export function scrollsLikeABrowser(table: HTMLElement): void {
  let top = 0;
  Object.defineProperty(table, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (value: number) => (top = Math.max(0, Math.min(value, spacerOf(table) - VIEW))),
  });
}
