// The transfer speed shown beside each file and in the status bar: bytes per second over the last five seconds,
// summed in 100 ms slots. A clock the test moves by hand gives exact figures.
import { describe, expect, it } from 'vitest';
import { SpeedMeter } from '../../../src-main/core/downloads/speed-meter';

function meterAt(start: number): { meter: SpeedMeter; at: (ms: number) => void } {
  let now = start;
  return { meter: new SpeedMeter(5_000, () => now), at: (ms) => (now = ms) };
}

describe('the speed meter', () => {
  it('says 0 before any byte arrived', () => {
    expect(new SpeedMeter(5_000, () => 1_234).bytesPerSecond()).toBe(0);
  });

  it('counts from the start of the first slot, and at least one slot, when the first byte is recent', () => {
    const { meter, at } = meterAt(1_050);
    meter.add(1_000); // the slot from 1,000 ms
    at(1_080);
    meter.add(1_000);
    // 2,000 bytes in at least one slot of 100 ms
    expect(meter.bytesPerSecond()).toBe(20_000);
    at(1_250);
    // since 1,000 ms, the start of the first slot: 250 ms
    expect(meter.bytesPerSecond()).toBe(8_000);
  });

  it('follows a steady transfer closely all through it', () => {
    const { meter, at } = meterAt(0);
    for (let now = 0; now <= 20_000; now += 10) {
      at(now);
      meter.add(100); // 10,000 bytes a second
      if (now >= 1_000 && now % 500 === 0) expect(meter.bytesPerSecond(), `at ${now} ms`).toBeGreaterThan(9_800);
      if (now >= 1_000 && now % 500 === 0) expect(meter.bytesPerSecond(), `at ${now} ms`).toBeLessThan(10_200);
    }
  });

  it('keeps one slot per 100 ms however many pieces arrive, so adding costs the same all through a long download', () => {
    const { meter, at } = meterAt(0);
    for (let now = 0; now < 60_000; now += 1) {
      at(now);
      meter.add(10);
    }
    // The window of 5 s and the slot it began in: 51 slots, not one per piece.
    expect((meter as unknown as { slots: unknown[] }).slots.length).toBeLessThanOrEqual(52);
    expect(meter.bytesPerSecond()).toBeCloseTo(10_000, -2);
  });

  it('forgets what came more than the window ago, so it follows a change of speed', () => {
    const { meter, at } = meterAt(0);
    for (let now = 0; now < 10_000; now += 100) {
      at(now);
      meter.add(1_000); // 10,000 bytes a second
    }
    for (let now = 10_000; now <= 20_000; now += 100) {
      at(now);
      meter.add(100); // 1,000 bytes a second
    }
    at(20_050);
    expect(meter.bytesPerSecond()).toBeCloseTo(1_000, -2); // within 50
  });

  it('keeps exactly the slots that end within the window', () => {
    const { meter, at } = meterAt(0);
    // The slot at t ms holds t / 100 bytes, so which slots were kept shows in the figure.
    for (let now = 0; now <= 10_000; now += 100) {
      at(now);
      meter.add(now / 100);
    }
    at(10_100);
    // Window 10,100 - 5,000 = 5,100: the slot from 5,000 ends at 5,100 and is kept, the one from 4,900 is not.
    // Slots 50..100 hold 3,825 bytes over the 5,100 ms since the slot from 5,000 began.
    expect(meter.bytesPerSecond()).toBeCloseTo(750, 6);
  });
});
