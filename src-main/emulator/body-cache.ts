// Gzip bodies of small files, kept so a benchmark downloading the same few files many times measures the client,
// not the emulator's compression. Least recently used entries go first once the byte budget is exceeded.

export class BodyCache {
  private readonly entries = new Map<string, { body: Promise<Buffer>; size: number }>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The cached body, or the one `make` produces (shared by concurrent requests for the same key). */
  get(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit); // re-insert: Map order is the recency order
      return hit.body;
    }
    const entry = { body: make(), size: 0 };
    this.entries.set(key, entry);
    entry.body.then(
      (body) => {
        if (this.entries.get(key) !== entry) return;
        entry.size = body.length;
        this.total += body.length;
        this.evict();
      },
      () => this.entries.delete(key),
    );
    return entry.body;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budgetBytes) break;
      this.entries.delete(key);
      this.total -= entry.size;
    }
  }
}
