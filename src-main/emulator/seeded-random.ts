// Deterministic randomness: every "random" choice of the emulator comes from here, so a seed reproduces a run.

/** FNV-1a over the text, finished with murmur3's mixer so that names differing in one digit spread well. */
export function hash32(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ Math.imul(salt | 0, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A stable number in [0, 1) for a text, e.g. to decide per file whether its listed size is 0. */
export function unitHash(text: string, salt = 0): number {
  return hash32(text, salt) / 4294967296;
}

/** mulberry32: tiny, fast, good enough for fault draws and schedule jitter (not for secrets). */
export function seededRandom(seed: number): () => number {
  let state = hash32(String(seed), 0x5eed) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max] drawn from a generator. */
export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
