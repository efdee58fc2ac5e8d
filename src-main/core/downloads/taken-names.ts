// Names with a small whole number each, kept outside the JavaScript heap. The intake remembers every name a listing
// gave it (a million for two years of KCor): as a Map of strings that took some 100 bytes a name and made every
// garbage collection walk a million objects. Here a name costs its UTF-8 bytes and four numbers: one growing buffer
// holds the names end to end, found through an open-addressing table of their hashes.

const INITIAL_ENTRIES = 1024;
/** A lone surrogate: UTF-8 has no bytes for it (it becomes U+FFFD), so two such names could not be told apart. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMPTY = 0;

export class TakenNames {
  private bytes = Buffer.allocUnsafe(INITIAL_ENTRIES * 40);
  private usedBytes = 0;
  /** Where entry i's name ends in `bytes` (it starts where entry i - 1's ends). */
  private ends = new Uint32Array(INITIAL_ENTRIES);
  private hashes = new Uint32Array(INITIAL_ENTRIES);
  private values = new Int32Array(INITIAL_ENTRIES);
  private count = 0;
  /** Entry index + 1 by hash slot (EMPTY: free); never more than half full. */
  private slots = new Int32Array(INITIAL_ENTRIES * 2);
  /** The name being looked up, as UTF-8. */
  private scratch = Buffer.allocUnsafe(256);
  private scratchLength = 0;
  /** The hash of the name in `scratch`. */
  private lastHash = 0;
  /** Names with a lone surrogate (LONE_SURROGATE), which no listing should have, kept as they are. */
  private readonly illFormed = new Map<string, number>();

  get size(): number {
    return this.count + this.illFormed.size;
  }

  get(name: string): number | undefined {
    if (LONE_SURROGATE.test(name)) return this.illFormed.get(name);
    const slot = this.find(name);
    const entry = this.slots[slot]!;
    return entry === EMPTY ? undefined : this.values[entry - 1];
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  set(name: string, value: number): void {
    if (LONE_SURROGATE.test(name)) {
      this.illFormed.set(name, value);
      return;
    }
    const slot = this.find(name);
    const entry = this.slots[slot]!;
    if (entry !== EMPTY) {
      this.values[entry - 1] = value;
      return;
    }
    // find() left the name in the scratch buffer, and its hash beside it.
    this.append(this.lastHash, value);
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  /** The slot that holds `name`, or the free slot where it would go; encodes the name into `scratch` on the way. */
  private find(name: string): number {
    if (name.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(name.length * 3);
    const length = this.scratch.write(name, 0, 'utf8');
    this.scratchLength = length;
    const scratch = this.scratch;
    // FNV-1a over the UTF-8 bytes.
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i += 1) hash = Math.imul(hash ^ scratch[i]!, 0x01000193);
    hash >>>= 0;
    this.lastHash = hash;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY || (this.hashes[entry - 1] === hash && this.holds(entry - 1, length))) return slot;
    }
  }

  /** Whether entry `index` is the name in `scratch`. */
  private holds(index: number, length: number): boolean {
    const start = index === 0 ? 0 : this.ends[index - 1]!;
    if (this.ends[index]! - start !== length) return false;
    const { bytes, scratch } = this;
    for (let i = 0; i < length; i += 1) if (bytes[start + i] !== scratch[i]) return false;
    return true;
  }

  private append(hash: number, value: number): void {
    const length = this.scratchLength;
    if (this.usedBytes + length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.usedBytes + length));
      this.bytes.copy(grown, 0, 0, this.usedBytes);
      this.bytes = grown;
    }
    this.scratch.copy(this.bytes, this.usedBytes, 0, length);
    this.usedBytes += length;
    if (this.count === this.ends.length) {
      this.ends = grownCopy(this.ends, new Uint32Array(this.ends.length * 2));
      this.hashes = grownCopy(this.hashes, new Uint32Array(this.hashes.length * 2));
      this.values = grownCopy(this.values, new Int32Array(this.values.length * 2));
    }
    this.ends[this.count] = this.usedBytes;
    this.hashes[this.count] = hash;
    this.values[this.count] = value;
    this.count += 1;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let index = 0; index < this.count; index += 1) {
      let slot = this.hashes[index]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.slots = slots;
  }
}

function grownCopy<T extends Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
