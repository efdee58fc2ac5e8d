// Percentiles of an image's pixels for a display clip (e.g. 1-99.5 %), NaN and infinities ignored. The finite
// values are copied once and the needed order statistics found by selection (Hoare's quickselect with a
// median-of-three pivot), O(n) on average, instead of sorting the whole image.

/** Pixel arrays the reader produces (and plain arrays, for tests). */
export type Pixels = Float32Array | Float64Array | readonly number[];

/**
 * The `percents` (0 to 100) of the finite values, interpolating linearly between the two nearest order
 * statistics, as numpy's default `percentile` does; `null` when no value is finite.
 */
export function percentiles(pixels: Pixels, percents: readonly number[]): number[] | null {
  checkPercents(percents);
  const values = finiteValues(pixels);
  const count = values.length;
  if (count === 0) return null;
  // Every order statistic needed, ascending: each selection then works on what lies above the previous one.
  const ranks = ranksFor(percents, count);
  const selected = new Map<number, number>();
  let left = 0;
  for (const rank of ranks) {
    selected.set(rank, select(values, rank, left, count - 1));
    left = rank;
  }
  return interpolated(percents, count, selected);
}

export function checkPercents(percents: readonly number[]): void {
  for (const percent of percents) {
    if (!(percent >= 0 && percent <= 100)) throw new RangeError(`a percentile must be from 0 to 100, not ${percent}`);
  }
}

/** The order statistics (0 the smallest of `count` values) that the `percents` lie between, ascending. */
export function ranksFor(percents: readonly number[], count: number): number[] {
  const positions = percents.map((percent) => (percent / 100) * (count - 1));
  return [...new Set(positions.flatMap((position) => [Math.floor(position), Math.min(count - 1, Math.ceil(position))]))].sort((a, b) => a - b);
}

/** Each percent from the order statistics `selected` (by rank), interpolated linearly as numpy's default does. */
export function interpolated(percents: readonly number[], count: number, selected: ReadonlyMap<number, number>): number[] {
  return percents.map((percent) => {
    const position = (percent / 100) * (count - 1);
    const below = selected.get(Math.floor(position))!;
    const above = selected.get(Math.min(count - 1, Math.ceil(position)))!;
    const fraction = position - Math.floor(position);
    return fraction === 0 ? below : below + (above - below) * fraction;
  });
}

/** The `k`-th smallest of `values` (0 the smallest); reorders them. */
export function orderStatistic(values: Float32Array | Float64Array, k: number): number {
  return select(values, k, 0, values.length - 1);
}

/**
 * How many pixels a display clip is estimated from. Selecting exactly over a million-pixel image is most of a
 * quick-look's time in a browser, and a 4096 x 4096 one takes sixteen times that; a sample of 2^18 pixels costs
 * the same at any size. The sample is stratified (see `clipSample`), so the fraction of it
 * below any value errs from the image's by at most sqrt(p (1 - p) / n) in standard deviation: 0.014 % at the
 * 99.5 % point, 0.019 % at the 1 % point, so the sampled clip's rank is within 0.06 % of the one asked for
 * (three standard deviations) at every image size, which no one can see in a picture.
 */
export const CLIP_SAMPLE_SIZE = 262_144;

/**
 * At most `most` of the pixels (the array itself when it is no larger): the array is cut into `most` equal runs
 * and one pixel taken from each, at a place drawn from a fixed pseudo-random sequence (the same picture always
 * gets the same clip). An evenly spaced sample aliases with the image's rows instead: on a 4096 x 4096 image its
 * step is 256.06 pixels, so it keeps to a few columns, and a radial coronagraph image's 1-99.5 % clip came out at
 * the 1.11 and 99.22 % ranks.
 */
export function clipSample(pixels: Pixels, most: number = CLIP_SAMPLE_SIZE): Pixels {
  if (pixels.length <= most) return pixels;
  const sample = pixels instanceof Float32Array ? new Float32Array(most) : new Float64Array(most);
  const step = pixels.length / most;
  let state = 0x9e3779b9;
  let start = 0;
  for (let i = 0; i < most; i += 1) {
    const end = Math.floor((i + 1) * step);
    // xorshift32: cheap, and spread enough for picking a place in a run of a few hundred pixels.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    sample[i] = pixels[start + Math.floor(((state >>> 0) / 4294967296) * (end - start))]!;
    start = end;
  }
  return sample;
}

/** The finite values, in an array of the input's precision (the selection reorders it). */
function finiteValues(pixels: Pixels): Float32Array | Float64Array {
  const values = pixels instanceof Float32Array ? new Float32Array(pixels.length) : new Float64Array(pixels.length);
  let count = 0;
  for (let i = 0; i < pixels.length; i += 1) {
    const value = pixels[i]!;
    if (Number.isFinite(value)) values[count++] = value;
  }
  return values.subarray(0, count);
}

/**
 * Moves the `k`-th smallest of `values[left..right]` to index `k`, everything smaller before it and everything
 * larger after it, and returns it (Numerical Recipes' `select`). Equal values stop both scans, so an image that
 * is mostly one value (a coronagraph's occulter) still splits evenly.
 */
function select(values: Float32Array | Float64Array, k: number, left: number, right: number): number {
  let low = left;
  let high = right;
  for (;;) {
    if (high <= low + 1) {
      if (high === low + 1 && values[high]! < values[low]!) swap(values, low, high);
      return values[k]!;
    }
    const middle = (low + high) >>> 1;
    swap(values, middle, low + 1);
    if (values[low]! > values[high]!) swap(values, low, high);
    if (values[low + 1]! > values[high]!) swap(values, low + 1, high);
    if (values[low]! > values[low + 1]!) swap(values, low, low + 1);
    const pivot = values[low + 1]!;
    let i = low + 1;
    let j = high;
    for (;;) {
      do i += 1;
      while (values[i]! < pivot);
      do j -= 1;
      while (values[j]! > pivot);
      if (j < i) break;
      swap(values, i, j);
    }
    values[low + 1] = values[j]!;
    values[j] = pivot;
    if (j >= k) high = j - 1;
    if (j <= k) low = i;
  }
}

function swap(values: Float32Array | Float64Array, a: number, b: number): void {
  const kept = values[a]!;
  values[a] = values[b]!;
  values[b] = kept;
}
