// A figure's axes against sunpy's map plot and astropy's world coordinates (test/fixtures/figure-axes/
// astropy-ticks.json, written by scripts/fixtures/make_figure_axes.py): the same tick values on the same edges as
// WCSAxes shows them, each where astropy puts that value on that edge, labelled as WCSAxes labels it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FitsValue } from '../../../src-science/fits/fits-cards';
import { figureAxes, type AxisTick, type FigureAxes } from '../../../src-science/figures/figure-axes';

interface FixtureTick {
  edge: AxisTick['edge'];
  value: number;
  /** astropy's place of the value on the edge, FITS counts. */
  at: number;
  label?: string | null;
}
interface FixtureCase {
  name: string;
  header: Record<string, FitsValue>;
  coordinates: { coordinate: 'x' | 'y'; spacingArcsec: number; axisLabel: string; labelEdges: string[]; ticks: FixtureTick[] }[];
}
const AXES_FIXTURE = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/figure-axes/astropy-ticks.json'), 'utf8')) as {
  cases: FixtureCase[];
};

function axesOf(header: Record<string, FitsValue>): FigureAxes {
  const axes = figureAxes(new Map(Object.entries(header)), { width: header['NAXIS1'] as number, height: header['NAXIS2'] as number });
  if ('reason' in axes) throw new Error(axes.reason);
  return axes;
}

/** A tick as compared: its coordinate, edge and value (to a millionth of an arcsec: WCSAxes's carry binary noise). */
const key = (coordinate: string, edge: string, value: number): string => `${coordinate} ${edge} ${Number(value.toFixed(6))}`;

describe("a figure's axes, against sunpy's plot and astropy's world coordinates", () => {
  it('has the six headers, each with ticks on both axes', () => {
    expect(AXES_FIXTURE.cases.map((each) => each.name)).toEqual(['kcor-256', 'kcor-1024', 'rotated-crota2', 'ucomp-pc', 'cd-far-from-sun', 'linear-solx']);
  });

  for (const each of AXES_FIXTURE.cases) {
    it(`${each.name}: the values WCSAxes ticks, on the edges it ticks them, each within 0.01 pixel of astropy's place`, () => {
      const axes = axesOf(each.header);
      const wanted = each.coordinates.flatMap(({ coordinate, ticks }) => ticks.map((tick) => ({ coordinate, ...tick })));
      expect(axes.ticks.map((tick) => key(tick.coordinate, tick.edge, tick.valueArcsec)).sort()).toEqual(
        wanted.map((tick) => key(tick.coordinate, tick.edge, tick.value)).sort(),
      );
      for (const tick of wanted) {
        const ours = axes.ticks.find((mine) => key(mine.coordinate, mine.edge, mine.valueArcsec) === key(tick.coordinate, tick.edge, tick.value))!;
        expect(Math.abs(ours.at - tick.at), `${key(tick.coordinate, tick.edge, tick.value)}: ${ours.at} for astropy's ${tick.at}`).toBeLessThan(0.01);
      }
    });

    it(`${each.name}: x labelled along the bottom, y along the left, as WCSAxes labels them (with ″ for its ")`, () => {
      const axes = axesOf(each.header);
      for (const { coordinate, labelEdges, ticks } of each.coordinates) {
        expect(labelEdges).toEqual([coordinate === 'x' ? 'bottom' : 'left']);
        const labelled = ticks.filter((tick) => tick.edge === labelEdges[0]);
        const ours = axes.ticks.filter((tick) => tick.coordinate === coordinate && tick.label !== undefined);
        expect(ours.map((tick) => tick.edge)).toEqual(labelled.map(() => labelEdges[0]));
        // WCSAxes writes an angle's labels with ", a linear coordinate's without a unit; ours are all in arcsec.
        expect(ours.map((tick) => tick.label).sort()).toEqual(labelled.map((tick) => `${tick.label!.replace(/"$/, '')}″`).sort());
      }
    });
  }

  it('titles the axes as sunpy does (Solar-X and Solar-Y when the long title does not fit), linear axes as Solar-X and Solar-Y', () => {
    const [kcor, linear] = [AXES_FIXTURE.cases[0]!, AXES_FIXTURE.cases.at(-1)!];
    expect(axesOf(kcor.header).titles).toEqual({ x: [kcor.coordinates[0]!.axisLabel, 'Solar-X'], y: [kcor.coordinates[1]!.axisLabel, 'Solar-Y'] });
    expect(axesOf(linear.header).titles).toEqual({ x: ['Solar-X'], y: ['Solar-Y'] });
  });

  it('says why an image without world coordinates has no axes', () => {
    expect(figureAxes(new Map<string, FitsValue>([['NAXIS1', 10]]), { width: 10, height: 10 })).toEqual({
      reason: 'its header names no coordinate axes (CTYPE1, CTYPE2)',
    });
  });
});
