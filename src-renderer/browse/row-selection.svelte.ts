// Which files of a (possibly million-row) search are selected, by their listing positions (ResultRow.position), so a
// selection survives a change of order and rows arriving anywhere in it. A byte per position and a version counter
// keep range selection cheap; "all" is a state of its own, so rows that arrive later are selected too.
import type { PositionRun } from '../../src-shared/search/result-page';

export class RowSelection {
  /** Where the last plain click or Space landed, as a row number in the order shown: the start of a shift range. */
  anchor: number | null = null;
  /** The file there (its listing position): in a column's order, rows arriving move it to another row number. */
  anchorPosition: number | null = null;

  private flags = new Uint8Array(0);
  /** The positions flagged (all of them are counted while `everything` holds). */
  private flagged = $state(0);
  /** The listing's rows so far: what "all" counts. */
  private rows = $state(0);
  /** Every row, those still to arrive included (Ctrl/Cmd+A, the header's box). */
  private everything = $state(false);
  private version = $state(0);

  /** How many files are selected: the one count "N selected" and "Download selected" say. */
  get count(): number {
    return this.everything ? this.rows : this.flagged;
  }

  /** All is selected, rows still to arrive included: "Download selected" then sends what "Download all" sends. */
  get all(): boolean {
    return this.everything;
  }

  /** Every row so far is selected (the header's box shows it checked). */
  get allSelected(): boolean {
    return this.rows > 0 && this.count === this.rows;
  }

  /** Starts over for a new listing of `size` rows, nothing selected. */
  reset(size: number): void {
    this.flags = new Uint8Array(size);
    this.rows = size;
    this.flagged = 0;
    this.everything = false;
    this.anchor = null;
    this.anchorPosition = null;
    this.version += 1;
  }

  /** The listing grew to `size` rows: the new ones come unselected, unless all is selected. */
  grow(size: number): void {
    if (size <= this.flags.length) return;
    const flags = new Uint8Array(size);
    flags.set(this.flags);
    this.flags = flags;
    this.rows = size;
    this.version += 1;
  }

  has(position: number): boolean {
    // Reading the version makes the caller depend on every change to the flags.
    return this.version >= 0 && (this.everything || this.flags[position] === 1);
  }

  /** Toggles the file at `position`; `row` (its number in the order shown) becomes the anchor. */
  toggle(position: number, row: number): void {
    if (position < 0 || position >= this.flags.length) return;
    // One file left out of "all": every other row so far stays selected, and rows arriving later come unselected.
    if (this.everything) this.settleAll();
    const next = this.flags[position] === 1 ? 0 : 1;
    this.flags[position] = next;
    this.flagged += next === 1 ? 1 : -1;
    this.anchor = row;
    this.anchorPosition = position;
    this.version += 1;
  }

  /** Selects the files at these positions, keeping the rest. */
  add(runs: readonly PositionRun[]): void {
    if (this.everything) return;
    let added = 0;
    for (const { first, last } of runs) {
      for (let position = Math.max(0, first); position <= Math.min(last, this.flags.length - 1); position++) {
        if (this.flags[position] !== 1) {
          this.flags[position] = 1;
          added += 1;
        }
      }
    }
    this.flagged += added;
    this.version += 1;
  }

  /** Every file, those still to arrive included. */
  selectAll(): void {
    this.everything = true;
    this.version += 1;
  }

  clear(): void {
    this.flags.fill(0);
    this.flagged = 0;
    this.everything = false;
    this.version += 1;
  }

  /** The selected positions as runs in listing order: all of a million rows is one run. */
  ranges(): PositionRun[] {
    if (this.everything) return this.rows > 0 ? [{ first: 0, last: this.rows - 1 }] : [];
    const out: PositionRun[] = [];
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

  /** "All" becomes the rows so far, each flagged. */
  private settleAll(): void {
    this.flags.fill(1);
    this.flagged = this.flags.length;
    this.everything = false;
  }
}
