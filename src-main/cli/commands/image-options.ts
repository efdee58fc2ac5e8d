// The options quicklook and movie share: how values become grey levels (--stretch, --clip) and how large the
// picture is (--size), each checked into one plain line when it makes no sense.
import { DEFAULT_CLIP_PERCENTS, STRETCHES, type StretchName } from '../../../src-science/fits/image-stretch';
import { UsageError } from '../exit-codes';

export function parseStretch(value: string | undefined): StretchName {
  if (value === undefined) return 'asinh';
  const stretch = STRETCHES.find((name) => name === value.trim().toLowerCase());
  if (!stretch) throw new UsageError(`--stretch "${value}" is not one of ${STRETCHES.join(', ')}.`);
  return stretch;
}

/** `--clip 1,99.5`: the percentiles below and above which pixels saturate. */
export function parseClip(value: string | undefined): [number, number] {
  if (value === undefined) return [...DEFAULT_CLIP_PERCENTS];
  const parts = value.split(',').map((part) => part.trim());
  const [low, high] = parts.map(Number);
  const valid = parts.length === 2 && parts.every((part) => part !== '') && low! >= 0 && high! <= 100 && low! < high!;
  if (!valid) throw new UsageError(`--clip "${value}" must be two percentiles from 0 to 100, the lower first, such as 1,99.5.`);
  return [low!, high!];
}

export function parseSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > 65535) {
    throw new UsageError(`--size "${value}" must be a whole number of pixels from 1 to 65535, such as 512.`);
  }
  return Number(value);
}
