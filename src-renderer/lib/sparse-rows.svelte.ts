// Row virtualization for a list of a million rows of one height but a few taller ones (the download queue: a row
// with a note has a second line), or of one height only (Browse's results, a windowed listing of a million files).
// A general virtualizer (@tanstack/virtual-core) keeps an object per row and measures every row whenever the count
// or a height changes: at a million rows, work on every change and a heap the garbage collector walks while the user
// scrolls. Here a row's place is arithmetic: its index times the
// row height, plus the extra height of the taller rows before it, and only the rows loaded can be taller (the rest
// are one line until their page arrives), so a layout costs what is loaded, never the list.
//
// A list taller than a browser lets an element be (Chromium stops near 33.5M px, 2^25 in its fixed-point layout
// units; Firefox near 17.9M) gets a spacer of MAX_SPACER and a scaled scroll bar: the scroll bar's share is the list's
// share (dragging it to the middle shows the middle rows, to its end the last), while a wheel step, an arrow or a page
// key moves the list by its own pixels, as below the cap. `naturalTop` is where the list would be scrolled without a
// cap, and the rows are placed that far above the view, wherever the scroll bar is.
import { untrack } from 'svelte';

/** The tallest spacer: below Firefox's cap, the lowest of the browsers'. */
const MAX_SPACER = 15_000_000;
/** Chromium's step for an arrow key (and a line of a wheel that counts lines). */
const LINE_STEP = 40;
/** A page key moves by this share of the view, as in Chromium. */
const PAGE_SHARE = 0.875;

interface SparseRowsOptions {
  rowHeight: number;
  overscan: number;
  /** Height of a sticky header inside the scroll element: rows start below it. */
  headerHeight: number;
  /** Height assumed while the scroll element reports none (jsdom never lays out; a hidden element measures 0). */
  fallbackHeight?: number;
  /** A row's height; asked only for the rows `measuredRows` names. Without it, every row is `rowHeight` tall. */
  rowHeightOf?: (index: number) => number;
  /** The ranges of rows (first to last, inclusive) that may be taller than `rowHeight`: the rows loaded. */
  measuredRows?: () => Iterable<{ first: number; last: number }>;
  /**
   * Whether a scaled list's arrow, page, Home and End keys scroll it here (true by default). A table whose keys move
   * a cursor of its own says false and brings the cursor's row into view with `scrollToIndex`.
   */
  scrollsOnKeys?: boolean;
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
  /** Height of the spacer that gives the scroll bar its length: the whole list's, up to MAX_SPACER. */
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
  /** The list is taller than MAX_SPACER: the scroll bar is scaled, and wheel and keys move the list themselves. */
  private scaled = false;
  /** Where the list is scrolled, in its own pixels (scrollTop, were there no cap). */
  private naturalTop = 0;
  /** The scrollTop last set or seen: a scroll event elsewhere is the scroll bar's, and maps by share. */
  private shownTop = 0;

  constructor(options: SparseRowsOptions) {
    this.options = options;
  }

  /** Connects the scroll element; returns the cleanup (use from an $effect). */
  attach(element: HTMLElement): () => void {
    this.element = element;
    this.viewportHeight = element.clientHeight;
    this.shownTop = this.naturalTop = element.scrollTop;
    const onScroll = (): void => {
      const top = element.scrollTop;
      // In a scaled list, the scroll events of the table's own moves leave it where they put it; any other (the
      // scroll bar dragged, the browser's own keys) places it by share.
      if (!this.scaled) this.naturalTop = top;
      else if (Math.abs(top - this.shownTop) >= 1) this.naturalTop = this.naturalOf(top);
      this.shownTop = top;
      this.publish();
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    if (this.options.scrollsOnKeys !== false) element.addEventListener('keydown', this.onKey);
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
      element.removeEventListener('keydown', this.onKey);
      this.listenToWheel(false);
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
    if (!rowHeightOf || !measuredRows) return;
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
   * Scrolls the least that shows a row whole below the header (nothing when it is shown): the keyboard's cursor
   * kept in view. A scaled list moves by its own pixels and its scroll bar follows at its share.
   */
  scrollToIndex(index: number): void {
    if (this.count === 0) return;
    const row = Math.max(0, Math.min(this.count - 1, index));
    const start = this.startOf(row);
    const end = this.startOf(row + 1);
    const top = this.naturalTop;
    let to: number;
    if (start - this.options.headerHeight < top) to = start - this.options.headerHeight;
    else if (end > top + this.viewHeight) to = end - this.viewHeight;
    else return;
    if (this.scaled) this.scrollTo(to);
    else {
      // The browser clamps it, and tells the scroll; laying out now puts the row in the same frame.
      if (this.element) this.element.scrollTop = Math.max(0, to);
      this.publish();
    }
  }

  /** Rows that fit in one view, for Page Up and Page Down moving a cursor. */
  pageSize(): number {
    return Math.max(1, Math.floor(this.viewHeight / this.options.rowHeight) - 1);
  }

  /** The view's height: the scroll element's, or an assumed one while it reports none. */
  private get viewHeight(): number {
    return this.viewportHeight || this.options.fallbackHeight || 600;
  }

  /** How far the list and the spacer can scroll (each one's height less the view's). */
  private get scrollRanges(): { natural: number; shown: number } {
    const natural = this.options.headerHeight + this.count * this.options.rowHeight + this.totalExtra;
    return { natural: Math.max(0, natural - this.viewHeight), shown: Math.max(0, this.totalSize - this.viewHeight) };
  }

  /** The list's place for a scrollTop of the scaled spacer: the same share of the way. */
  private naturalOf(top: number): number {
    const { natural, shown } = this.scrollRanges;
    return shown === 0 ? 0 : (top / shown) * natural;
  }

  /**
   * A scaled list's wheel: the list moves by the wheel's pixels (a scroll bar 5M rows long would move thousands of
   * rows a step). Listened to only while scaled: a wheel listener that may cancel makes the browser wait for the page.
   */
  private readonly onWheel = (event: WheelEvent): void => {
    if (event.ctrlKey || event.deltaY === 0) return; // a zoom, or a sideways scroll: the browser's
    event.preventDefault();
    // deltaMode: 0 pixels, 1 lines, 2 pages.
    const unit = event.deltaMode === 1 ? LINE_STEP : event.deltaMode === 2 ? this.viewHeight * PAGE_SHARE : 1;
    if (event.deltaX !== 0 && this.element) this.element.scrollLeft += event.deltaX * unit;
    this.scrollTo(this.naturalTop + event.deltaY * unit);
  };

  private wheelHeard = false;

  private listenToWheel(on: boolean): void {
    if (on === this.wheelHeard || (on && !this.element)) return;
    this.wheelHeard = on;
    if (on) this.element!.addEventListener('wheel', this.onWheel, { passive: false });
    else this.element?.removeEventListener('wheel', this.onWheel);
  }

  /** A scaled list's keys (the focused table's or a button's in it): arrows, pages, Home and End, as the browser's. */
  private readonly onKey = (event: KeyboardEvent): void => {
    if (!this.scaled || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const page = this.viewHeight * PAGE_SHARE;
    let to: number;
    if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = Infinity;
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') to = this.naturalTop + (event.key === 'ArrowDown' ? LINE_STEP : -LINE_STEP);
    else if (event.key === 'PageDown' || event.key === 'PageUp') to = this.naturalTop + (event.key === 'PageDown' ? page : -page);
    // Space pages on the table itself; on a button in a row it presses the button.
    else if (event.key === ' ' && event.target === this.element) to = this.naturalTop + (event.shiftKey ? -page : page);
    else return;
    event.preventDefault();
    this.scrollTo(to);
  };

  /** Scrolls a scaled list to a place of its own (clamped), the scroll bar to the same share. */
  private scrollTo(natural: number): void {
    this.naturalTop = Math.max(0, Math.min(natural, this.scrollRanges.natural));
    this.publish();
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
    const natural = headerHeight + this.count * rowHeight + this.totalExtra;
    const wasScaled = this.scaled;
    this.scaled = natural > MAX_SPACER;
    this.totalSize = Math.min(natural, MAX_SPACER);
    this.listenToWheel(this.scaled);
    if (this.count === 0) {
      if (this.items.length > 0) this.items = [];
      return;
    }
    const height = this.viewHeight;
    // The rows are placed `shift` above their place in the list, so that the list's naturalTop shows at the top of
    // the view, wherever the scaled scroll bar is (0 below the cap).
    let top: number;
    let shift = 0;
    if (this.scaled || wasScaled) {
      // The list keeps its place as it grows, shrinks or crosses the cap; the scroll bar follows at its share.
      const ranges = this.scrollRanges;
      top = this.naturalTop = Math.max(0, Math.min(this.naturalTop, ranges.natural));
      const shown = this.scaled ? Math.round(ranges.natural === 0 ? 0 : (top / ranges.natural) * ranges.shown) : Math.round(top);
      if (this.element && shown !== this.shownTop) this.element.scrollTop = shown;
      this.shownTop = shown;
      // Whole pixels: a row at a fraction of one draws its text blurred.
      if (this.scaled) shift = Math.round(top - shown);
    } else top = this.naturalTop = this.shownTop = this.element?.scrollTop ?? 0;
    const first = Math.max(0, this.indexAt(top) - overscan);
    const last = Math.min(this.count - 1, this.indexAt(top + height) + overscan);
    const items: SparseRow[] = [];
    for (let index = first; index <= last; index++) items.push({ key: index, index, start: this.startOf(index) - shift });
    if (!this.sameAs(items)) this.items = items;
  }

  /** The same rows at the same places: nothing to render again (a scroll within a row, a count past the view). */
  private sameAs(items: readonly SparseRow[]): boolean {
    const shown = this.items;
    if (shown.length !== items.length) return false;
    return items.every((item, at) => shown[at]!.index === item.index && shown[at]!.start === item.start);
  }
}
