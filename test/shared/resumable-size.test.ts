// Which bodies are kept for resuming: keeping one writes every byte twice (about 0.6 ms of CPU a MiB, some 2 ms a
// KCor file of 2.7 MB), while a file cut short is rare and one under 8 MiB is fetched again in seconds; a big file
// (UCoMP's, a daily average) is still kept.
import { describe, expect, it } from 'vitest';
import { isWorthResuming } from '../../src-shared/downloads/resumable-size';

const MIB = 1024 * 1024;

describe('isWorthResuming', () => {
  it('keeps nothing of a KCor-sized body (2.7 MB gzipped) or anything under 8 MiB', () => {
    expect(isWorthResuming(2_840_000)).toBe(false);
    expect(isWorthResuming(4 * MIB)).toBe(false);
    expect(isWorthResuming(8 * MIB - 1)).toBe(false);
  });

  it('keeps a body of 8 MiB or more, and one of unknown length', () => {
    expect(isWorthResuming(8 * MIB)).toBe(true);
    expect(isWorthResuming(256 * MIB)).toBe(true);
    expect(isWorthResuming(undefined)).toBe(true);
    expect(isWorthResuming(0)).toBe(true);
  });

  it('follows a threshold given by the caller', () => {
    expect(isWorthResuming(100, 0)).toBe(true);
    expect(isWorthResuming(100, 1_000)).toBe(false);
  });
});
