// Fixed-height row virtualization for the results and downloads tables, on @tanstack/virtual-core.
// @tanstack/svelte-virtual wraps the same core in Svelte 4 stores and loses track of the scroll element
// under Svelte 5 runes (TanStack/virtual#866), so this small adapter publishes the core's state as runes.
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect, type VirtualItem } from '@tanstack/virtual-core';

export interface VirtualRowsOptions {
  rowHeight: number;
  overscan?: number;
  /**
   * Height assumed while the scroll element reports none (jsdom never lays out; a hidden element measures 0):
   * enough rows to fill a window, never the whole list.
   */
  fallbackHeight?: number;
  /** Height of a sticky header inside the scroll element: rows start below it and scrolling keeps them clear of it. */
  headerHeight?: number;
  /** Rows of different heights (a second line for some): each row's height; call `remeasure` when they change. */
  rowHeightOf?: (index: number) => number;
}

export class VirtualRows {
  /** The rows to render, with their offsets. */
  items = $state.raw<VirtualItem[]>([]);
  /** Height of the whole list, for the spacer that gives the scroll bar its length. */
  totalSize = $state(0);

  private element: HTMLElement | null = null;
  private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;

  private readonly options: VirtualRowsOptions;

  constructor(options: VirtualRowsOptions) {
    this.options = options;
    const fallbackHeight = options.fallbackHeight ?? 600;
    this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
      count: 0,
      getScrollElement: () => this.element,
      estimateSize: options.rowHeightOf ?? (() => options.rowHeight),
      overscan: options.overscan ?? 8,
      paddingStart: options.headerHeight ?? 0,
      scrollPaddingStart: options.headerHeight ?? 0,
      observeElementRect: (instance, callback) =>
        observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : { width: rect.width, height: fallbackHeight })),
      observeElementOffset,
      scrollToFn: elementScroll,
      onChange: () => this.publish(),
    });
  }

  get rowHeight(): number {
    return this.options.rowHeight;
  }

  /** Connects the scroll element; returns the cleanup (use from an $effect). */
  attach(element: HTMLElement): () => void {
    this.element = element;
    const cleanup = this.virtualizer._didMount();
    this.virtualizer._willUpdate();
    this.publish();
    return () => {
      cleanup();
      this.element = null;
    };
  }

  setCount(count: number): void {
    if (this.virtualizer.options.count === count) return;
    this.virtualizer.setOptions({ ...this.virtualizer.options, count });
    this.virtualizer._willUpdate();
    this.publish();
  }

  /** Rows moved or changed height (`rowHeightOf` answers differently): lay them out again. */
  remeasure(): void {
    this.virtualizer.measure();
    this.publish();
  }

  scrollToIndex(index: number): void {
    this.virtualizer.scrollToIndex(index, { align: 'auto' });
  }

  /** Rows that fit in one screenful, for Page Up / Page Down. */
  pageSize(): number {
    const height = this.element?.clientHeight || this.options.fallbackHeight || 600;
    return Math.max(1, Math.floor(height / this.options.rowHeight) - 1);
  }

  private publish(): void {
    this.items = this.virtualizer.getVirtualItems();
    this.totalSize = this.virtualizer.getTotalSize();
  }
}
