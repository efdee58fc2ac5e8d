// A frame of a sequence as grey levels, as the player shows it and `mlso-dl movie` writes it: the frame itself
// through one clip shared by every frame (so brightness changes show), or its running difference (the frame minus
// the one before it) about mid-grey, the stretch bending each side of zero alike.
import type { Pixels } from './image-percentiles';
import { clipSample } from './image-percentiles';
import { displayBytes, percentileClip, STRETCH_FUNCTIONS, type ClipRange, type StretchName } from './image-stretch';

/** Each pixel minus the one before it in time; NaN where either is blank. */
export function difference(current: Pixels, previous: Pixels): Float32Array {
  const out = new Float32Array(current.length);
  for (let i = 0; i < out.length; i += 1) out[i] = current[i]! - previous[i]!;
  return out;
}

/** A difference is shown about zero: no change is mid-grey, brightening and dimming equally far from it. */
export function symmetric(clip: ClipRange): ClipRange {
  const reach = Math.max(Math.abs(clip.low), Math.abs(clip.high)) || 1;
  return { low: -reach, high: reach };
}

/**
 * Changes mapped to 0..1 with the stretch bending each side of zero alike (0.5 is no change), so a log or asinh
 * stretch brings out faint changes of either sign instead of lightening the whole picture.
 */
export function signedStretch(change: Float32Array, clip: ClipRange | null, stretch: StretchName): Float32Array {
  const out = new Float32Array(change.length);
  const reach = clip?.high ?? 1;
  const bend = STRETCH_FUNCTIONS[stretch];
  for (let i = 0; i < change.length; i += 1) {
    const t = change[i]! / reach;
    out[i] = Number.isNaN(t) ? Number.NaN : 0.5 + 0.5 * Math.sign(t) * bend(Math.min(1, Math.abs(t)));
  }
  return out;
}

/** The display clip of pixels, from a stratified sample of a large image's (see CLIP_SAMPLE_SIZE): quick. */
export function sampledClip(pixels: Pixels, percents: readonly [number, number]): ClipRange | null {
  return percentileClip(clipSample(pixels), percents[0], percents[1]);
}

/** A running difference as grey levels (top row first) with its symmetric clip. */
export function differenceGrey(change: Float32Array, width: number, height: number, clip: ClipRange | null, stretch: StretchName): Uint8Array {
  return displayBytes(signedStretch(change, clip, stretch), width, height, { stretch: 'linear', low: 0, high: 1 });
}
