// Row virtualization for a list of a million rows of one height but a few taller ones (the download queue: a row
// with a note has a second line). @tanstack/virtual-core (virtual-rows.svelte.ts) keeps an object per row and
// measures every row whenever the count or a height changes: at a million rows that is tens of milliseconds and
// a heap the garbage collector walks while the user scrolls. Here a row's place is arithmetic: its index times the
// row height, plus the extra height of the taller rows before it, and only the rows loaded can be taller (the rest
// are one line until their page arrives), so a layout costs what is loaded, never the list.
import { untrack } from 'svelte';

interface SparseRowsOptions {
  rowHeight: number;
  overscan: number;
  /** Height of a sticky header inside the scroll element: rows start below it. */
  headerHeight: number;
  /** Height assumed while the scroll element reports none (jsdom never lays out; a hidden element measures 0). */
  fallbackHeight?: number;
  /** A row's height; asked only for the rows `measuredRows` names. */
  rowHeightOf: (index: number) => number;
  /** The ranges of rows (first to last, inclusive) that may be taller than `rowHeight`: the rows loaded. */
  measuredRows: () => Iterable<{ first: number; last: number }>;
}

interface SparseRow {
  key: number;
  index: number;
  start: number;
}

/** Binary search: how many of the sorted `values` are below `value`. */
function countBelow(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class SparseRows {
  /** The rows to render, with their offsets. */
  items = $state.raw<SparseRow[]>([]);
  /** Height of the whole list, for the spacer that gives the scroll bar its length. */
  totalSize = $state(0);

  private readonly options: SparseRowsOptions;
  private element: HTMLElement | null = null;
  private count = 0;
  /** The scroll element's height, read when it is connected and when it resizes (never on a scroll: a forced layout). */
  private viewportHeight = 0;
  /** The taller rows' indexes, ascending, with their extra height and the extra of those before them. */
  private tall: number[] = [];
  private extra: number[] = [];
  private extraBefore: number[] = [];
  private totalExtra = 0;

  constructor(options: SparseRowsOptions) {
    this.options = options;
  }

  /** Connects the scroll element; returns the cleanup (use from an $effect). */
  attach(element: HTMLElement): () => void {
    this.element = element;
    this.viewportHeight = element.clientHeight;
    const onScroll = (): void => this.publish();
    element.addEventListener('scroll', onScroll, { passive: true });
    // A resize is told after the layout, so reading the height then costs nothing.
    const resize =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            this.viewportHeight = element.clientHeight;
            this.publish();
          });
    resize?.observe(element);
    this.publish();
    return () => {
      element.removeEventListener('scroll', onScroll);
      resize?.disconnect();
      this.element = null;
    };
  }

  setCount(count: number): void {
    if (count === this.count) return;
    this.count = count;
    this.publish();
  }

  /** The loaded rows changed height: their heights are asked for again (only theirs). */
  remeasure(): void {
    const { rowHeight, rowHeightOf, measuredRows } = this.options;
    const found: [number, number][] = [];
    for (const { first, last } of measuredRows()) {
      for (let index = first; index <= last; index++) {
        const height = rowHeightOf(index);
        if (height !== rowHeight) found.push([index, height - rowHeight]);
      }
    }
    found.sort((a, b) => a[0] - b[0]);
    this.tall = found.map(([index]) => index);
    this.extra = found.map(([, extra]) => extra);
    this.extraBefore = [];
    let sum = 0;
    for (const extra of this.extra) {
      this.extraBefore.push(sum);
      sum += extra;
    }
    this.totalExtra = sum;
    this.publish();
  }

  /** Where a row starts, from the top of the scroll element's content. */
  startOf(index: number): number {
    const taller = countBelow(this.tall, index);
    const before = taller === 0 ? 0 : this.extraBefore[taller - 1]! + this.extra[taller - 1]!;
    return this.options.headerHeight + index * this.options.rowHeight + before;
  }

  /** The row at a height in the content (clamped to the list). */
  indexAt(offset: number): number {
    const { rowHeight, headerHeight } = this.options;
    // The last taller row starting at or above the offset, by binary search over their starts.
    let low = 0;
    let high = this.tall.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = headerHeight + this.tall[middle]! * rowHeight + this.extraBefore[middle]!;
      if (start <= offset) low = middle + 1;
      else high = middle;
    }
    let index: number;
    if (low === 0) index = Math.floor((offset - headerHeight) / rowHeight);
    else {
      const at = low - 1;
      const end = headerHeight + this.tall[at]! * rowHeight + this.extraBefore[at]! + rowHeight + this.extra[at]!;
      index = offset < end ? this.tall[at]! : this.tall[at]! + 1 + Math.floor((offset - end) / rowHeight);
    }
    return Math.max(0, Math.min(this.count - 1, index));
  }

  /**
   * Untracked: it reads the rows shown, and an effect that calls it (attach, from the table's) must not follow them,
   * or each new row in view would connect the scroll element again.
   */
  private publish(): void {
    untrack(() => this.layOut());
  }

  private layOut(): void {
    const { overscan, headerHeight, rowHeight } = this.options;
    this.totalSize = headerHeight + this.count * rowHeight + this.totalExtra;
    if (this.count === 0) {
      if (this.items.length > 0) this.items = [];
      return;
    }
    const height = this.viewportHeight || this.options.fallbackHeight || 600;
    const top = this.element?.scrollTop ?? 0;
    const first = Math.max(0, this.indexAt(top) - overscan);
    const last = Math.min(this.count - 1, this.indexAt(top + height) + overscan);
    const items: SparseRow[] = [];
    for (let index = first; index <= last; index++) items.push({ key: index, index, start: this.startOf(index) });
    if (!this.sameAs(items)) this.items = items;
  }

  /** The same rows at the same places: nothing to render again (a scroll within a row, a count past the view). */
  private sameAs(items: readonly SparseRow[]): boolean {
    const shown = this.items;
    if (shown.length !== items.length) return false;
    return items.every((item, at) => shown[at]!.index === item.index && shown[at]!.start === item.start);
  }
}
