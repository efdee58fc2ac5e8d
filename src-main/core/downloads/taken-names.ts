// Names with a small whole number each, kept outside the JavaScript heap. The enqueuer remembers every name a listing
// gave it (a million for two years of KCor): a Map of strings would cost an object a name and make every garbage
// collection walk a million objects. Here a name costs its UTF-8 bytes and a few numbers: fixed-size chunks
// hold the names end to end (a full chunk is never copied or grown, so memory rises by a chunk at a time instead of
// doubling), found through an open-addressing table of their hashes. The hashes are of the names' UTF-16 units, so a
// name not taken (nearly every name of a listing) is looked up without being written as UTF-8.

const INITIAL_ENTRIES = 1024;
/** Bytes of one chunk of names; a name never spans two. */
const CHUNK_BITS = 20;
const CHUNK_BYTES = 1 << CHUNK_BITS;
/** Longer names (no file name is) are kept as they are, beside the chunks. */
const LONGEST_IN_CHUNKS = 0xffff;
/** A lone surrogate: UTF-8 has no bytes for it (it becomes U+FFFD), so two such names could not be told apart. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMPTY = 0;

export class TakenNames {
  private readonly chunks: Buffer[] = [];
  /** Bytes used in the last chunk. */
  private usedInLast = 0;
  /** Where entry i's name starts: chunk number << CHUNK_BITS | offset in the chunk. */
  private starts = new Uint32Array(INITIAL_ENTRIES);
  /** Entry i's name's length in UTF-8 bytes. */
  private lengths = new Uint16Array(INITIAL_ENTRIES);
  private hashes = new Uint32Array(INITIAL_ENTRIES);
  private values = new Int32Array(INITIAL_ENTRIES);
  private count = 0;
  /** Entry index + 1 by hash slot (EMPTY: free); never more than half full. */
  private slots = new Int32Array(INITIAL_ENTRIES * 2);
  /** `scratchOf`, as UTF-8, once a comparison or an append needed it. */
  private scratch = Buffer.allocUnsafe(256);
  private scratchLength = 0;
  private scratchOf: string | undefined;
  /** The hash of the name last looked up. */
  private lastHash = 0;
  /** Names with a lone surrogate (LONE_SURROGATE) or longer than LONGEST_IN_CHUNKS, which no listing has, kept as they are. */
  private readonly illFormed = new Map<string, number>();

  get size(): number {
    return this.count + this.illFormed.size;
  }

  get(name: string): number | undefined {
    if (keptAsIs(name)) return this.illFormed.get(name);
    const slot = this.find(name);
    const entry = this.slots[slot]!;
    return entry === EMPTY ? undefined : this.values[entry - 1];
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  set(name: string, value: number): void {
    if (keptAsIs(name)) {
      this.illFormed.set(name, value);
      return;
    }
    const slot = this.find(name);
    const entry = this.slots[slot]!;
    if (entry !== EMPTY) {
      this.values[entry - 1] = value;
      return;
    }
    // find() left the name's hash beside it.
    this.append(name, this.lastHash, value);
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  /** The slot that holds `name`, or the free slot where it would go. */
  private find(name: string): number {
    // FNV-1a over the UTF-16 units.
    let hash = 0x811c9dc5;
    for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
    hash >>>= 0;
    this.lastHash = hash;
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY || (this.hashes[entry - 1] === hash && this.holds(entry - 1, name))) return slot;
    }
  }

  /** `name` in `scratch` as UTF-8; its length in bytes. */
  private encode(name: string): number {
    if (this.scratchOf !== name) {
      if (name.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(name.length * 3);
      this.scratchLength = this.scratch.write(name, 0, 'utf8');
      this.scratchOf = name;
    }
    return this.scratchLength;
  }

  /** Whether entry `index` is `name`. */
  private holds(index: number, name: string): boolean {
    const length = this.encode(name);
    if (this.lengths[index] !== length) return false;
    const start = this.starts[index]!;
    const bytes = this.chunks[start >>> CHUNK_BITS]!;
    const offset = start & (CHUNK_BYTES - 1);
    const { scratch } = this;
    for (let i = 0; i < length; i += 1) if (bytes[offset + i] !== scratch[i]) return false;
    return true;
  }

  private append(name: string, hash: number, value: number): void {
    const length = this.encode(name);
    if (this.chunks.length === 0 || this.usedInLast + length > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafe(CHUNK_BYTES));
      this.usedInLast = 0;
    }
    const chunk = this.chunks.length - 1;
    this.scratch.copy(this.chunks[chunk]!, this.usedInLast, 0, length);
    if (this.count === this.starts.length) {
      this.starts = grownCopy(this.starts, new Uint32Array(this.starts.length * 2));
      this.lengths = grownCopy(this.lengths, new Uint16Array(this.lengths.length * 2));
      this.hashes = grownCopy(this.hashes, new Uint32Array(this.hashes.length * 2));
      this.values = grownCopy(this.values, new Int32Array(this.values.length * 2));
    }
    this.starts[this.count] = ((chunk << CHUNK_BITS) | this.usedInLast) >>> 0;
    this.lengths[this.count] = length;
    this.hashes[this.count] = hash;
    this.values[this.count] = value;
    this.usedInLast += length;
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

/** A name the chunks cannot hold as itself: a lone surrogate, or more UTF-8 bytes than a length there can say. */
function keptAsIs(name: string): boolean {
  return LONE_SURROGATE.test(name) || name.length * 3 > LONGEST_IN_CHUNKS;
}

function grownCopy<T extends Uint32Array | Uint16Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
