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
  for (const percent of percents) {
    if (!(percent >= 0 && percent <= 100)) throw new RangeError(`a percentile must be from 0 to 100, not ${percent}`);
  }
  const values = finiteValues(pixels);
  const count = values.length;
  if (count === 0) return null;
  // Every order statistic needed, ascending: each selection then works on what lies above the previous one.
  const positions = percents.map((percent) => (percent / 100) * (count - 1));
  const ranks = [...new Set(positions.flatMap((position) => [Math.floor(position), Math.min(count - 1, Math.ceil(position))]))].sort((a, b) => a - b);
  const selected = new Map<number, number>();
  let left = 0;
  for (const rank of ranks) {
    selected.set(rank, select(values, rank, left, count - 1));
    left = rank;
  }
  return positions.map((position) => {
    const below = selected.get(Math.floor(position))!;
    const above = selected.get(Math.min(count - 1, Math.ceil(position)))!;
    const fraction = position - Math.floor(position);
    return fraction === 0 ? below : below + (above - below) * fraction;
  });
}

/**
 * How many pixels a display clip is estimated from. A million-pixel image takes 20 to 130 ms to select exactly
 * in a browser, most of a quick-look's time; an even sample of 65,521 pixels puts the 1 % and 99.5 % points within
 * a few hundredths of a percent of their exact ranks, which no one can see in a picture (astropy's
 * PercentileInterval and ds9's zscale sample likewise). A prime, so the sample's step is not a whole number for the
 * usual power-of-two image sizes and the sampled columns move along from row to row instead of forming stripes.
 */
export const CLIP_SAMPLE_SIZE = 65_521;

/** At most `most` of the pixels, evenly spread over the whole array (the array itself when it is no larger). */
export function evenSample(pixels: Pixels, most: number = CLIP_SAMPLE_SIZE): Pixels {
  if (pixels.length <= most) return pixels;
  const sample = pixels instanceof Float32Array ? new Float32Array(most) : new Float64Array(most);
  const step = pixels.length / most;
  for (let i = 0; i < most; i += 1) sample[i] = pixels[Math.floor(i * step)]!;
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
