import { describe, expect, it } from 'vitest';
import { carringtonRotationAt, carringtonRotationStart } from '../../src-main/emulator/carrington';
import { carringtonRotationStart as appRotationStart } from '../../src-science/astro/carrington';
import { createEmulator } from '../../src-main/emulator';
import { listFiles } from './http-helpers';

const at = (iso: string): number => Date.parse(iso) / 1000;

describe('Carrington rotations (IAU elements, computed apart from the app’s)', () => {
  it('agrees with the app’s starts (sunpy’s rule) within 10 seconds from rotation 2100 to 2300, the archive’s years and more', () => {
    let worst = 0;
    for (let n = 2100; n <= 2300; n += 1) worst = Math.max(worst, Math.abs(carringtonRotationStart(n) - appRotationStart(n) / 1000));
    expect(worst).toBeLessThan(10);
  });

  it('puts known dates in their rotations', () => {
    // Rotation 1 began on 1853-11-09; 2295 spans most of March 2025.
    expect(new Date(carringtonRotationStart(1) * 1000).toISOString().slice(0, 10)).toBe('1853-11-09');
    expect(carringtonRotationAt(at('2025-03-24T21:00:00Z'))).toBe(2295);
    expect(carringtonRotationAt(at('2025-03-01T00:00:00Z'))).toBe(2294);
    expect(carringtonRotationAt(at('2025-04-01T00:00:00Z'))).toBe(2296);
  });

  it('places each start exactly on a boundary', () => {
    for (const n of [1000, 2000, 2295, 2300]) {
      const start = carringtonRotationStart(n);
      expect(carringtonRotationAt(start + 1)).toBe(n);
      expect(carringtonRotationAt(start - 1)).toBe(n - 1);
      expect(carringtonRotationStart(n + 1) - start).toBeGreaterThan(27.0 * 86400);
      expect(carringtonRotationStart(n + 1) - start).toBeLessThan(27.5 * 86400);
    }
  });
});

describe('the cr filter', () => {
  it('splits a 60-day catalogue at rotation boundaries', async () => {
    const emulator = await createEmulator({ days: 60 });
    try {
      const all = await listFiles(emulator, 'kcor', 'pbavg');
      const rotations = [...new Set(all.map((f) => carringtonRotationAt(at(`${f['date-obs']}Z`))))];
      expect(rotations.length).toBeGreaterThanOrEqual(3);
      let total = 0;
      for (const n of rotations) {
        const files = await listFiles(emulator, 'kcor', 'pbavg', `cr=${n}`);
        total += files.length;
        for (const file of files) {
          const t = at(`${file['date-obs']}Z`);
          expect(t >= carringtonRotationStart(n) && t < carringtonRotationStart(n + 1)).toBe(true);
        }
      }
      expect(total).toBe(all.length);
      expect(await listFiles(emulator, 'kcor', 'pbavg', 'cr=2100')).toEqual([]);
      const combined = await listFiles(emulator, 'kcor', 'pbavg', `cr=2295&start-date=2025-03-20&every=1day`);
      expect(combined.map((f) => f['date-obs'].slice(0, 10))).toEqual(['2025-03-20', '2025-03-21', '2025-03-22', '2025-03-23', '2025-03-24']);
    } finally {
      await emulator.close();
    }
  });
});
