// Which rows of a (possibly million-row) search are selected. A byte per row and a version counter keep
// select-all and range selection cheap; readers depend on the version, so visible rows re-render on change.
export class RowSelection {
  /** How many rows are selected. */
  count = $state(0);
  /** Where the last plain click or Space landed: the start of the next shift-click range. */
  anchor: number | null = null;

  private flags = new Uint8Array(0);
  private version = $state(0);

  get size(): number {
    return this.flags.length;
  }

  /** Starts over for a new listing of `size` rows, nothing selected. */
  reset(size: number): void {
    this.flags = new Uint8Array(size);
    this.count = 0;
    this.anchor = null;
    this.version += 1;
  }

  /** The listing grew to `size` rows: the new ones come unselected, the rest stay as they are. */
  grow(size: number): void {
    if (size <= this.flags.length) return;
    const flags = new Uint8Array(size);
    flags.set(this.flags);
    this.flags = flags;
    this.version += 1;
  }

  has(index: number): boolean {
    // Reading the version makes the caller depend on every change to the flags.
    return this.version >= 0 && this.flags[index] === 1;
  }

  get allSelected(): boolean {
    return this.version >= 0 && this.count > 0 && this.count === this.flags.length;
  }

  toggle(index: number): void {
    if (index < 0 || index >= this.flags.length) return;
    const next = this.flags[index] === 1 ? 0 : 1;
    this.flags[index] = next;
    this.count += next === 1 ? 1 : -1;
    this.anchor = index;
    this.version += 1;
  }

  /** Selects every row from the anchor (or `index` itself when there is none) to `index`, keeping the rest. */
  extendTo(index: number): void {
    if (index < 0 || index >= this.flags.length) return;
    const from = this.anchor ?? index;
    const [low, high] = from <= index ? [from, index] : [index, from];
    let added = 0;
    for (let i = low; i <= high; i++) {
      if (this.flags[i] !== 1) {
        this.flags[i] = 1;
        added += 1;
      }
    }
    this.count += added;
    this.version += 1;
  }

  selectAll(): void {
    this.flags.fill(1);
    this.count = this.flags.length;
    this.version += 1;
  }

  clear(): void {
    this.flags.fill(0);
    this.count = 0;
    this.version += 1;
  }

  /** The selected rows as ranges (first to last, inclusive), in order: all of a million rows is one range. */
  ranges(): { first: number; last: number }[] {
    const out: { first: number; last: number }[] = [];
    let start = -1;
    for (let i = 0; i <= this.flags.length; i++) {
      const on = i < this.flags.length && this.flags[i] === 1;
      if (on && start < 0) start = i;
      else if (!on && start >= 0) {
        out.push({ first: start, last: i - 1 });
        start = -1;
      }
    }
    return out;
  }
}
