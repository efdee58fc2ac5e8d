// The timeline in words: bin spans, the accessible summary, the date marks of the axis and the rotations crossed.
import { describe, expect, it } from 'vitest';
import { carringtonRotationStart } from '../../../src-science/astro/carrington';
import { coverageBins, timelineScale, type TimelineScale } from '../../../src-shared/coverage/timeline-bins';
import {
  axisMarks,
  binSizeAdjective,
  coverageSummary,
  describeBin,
  describeBinCount,
  describeBins,
  rotationMarks,
} from '../../../src-shared/coverage/timeline-labels';

const ms = (text: string): number => Date.parse(`${text}${text.length === 10 ? 'T00:00:00' : ''}Z`);
const scaleOf = (start: string, end: string): TimelineScale => timelineScale({ startMs: ms(start), endMs: ms(end) });

describe('bin sizes in words', () => {
  it('says hourly, daily, weekly, monthly, yearly, or the step and unit', () => {
    expect(binSizeAdjective({ unit: 'minute', step: 1 })).toBe('1-minute');
    expect(binSizeAdjective({ unit: 'minute', step: 10 })).toBe('10-minute');
    expect(binSizeAdjective({ unit: 'hour', step: 1 })).toBe('hourly');
    expect(binSizeAdjective({ unit: 'hour', step: 6 })).toBe('6-hour');
    expect(binSizeAdjective({ unit: 'day', step: 1 })).toBe('daily');
    expect(binSizeAdjective({ unit: 'week', step: 2 })).toBe('2-week');
    expect(binSizeAdjective({ unit: 'month', step: 1 })).toBe('monthly');
    expect(binSizeAdjective({ unit: 'month', step: 12 })).toBe('yearly');
    expect(binSizeAdjective({ unit: 'month', step: 60 })).toBe('5-year');
  });

  it('sums the timeline up: files, filled bins, all bins', () => {
    const files = ['2025-03-20T18:00:00', '2025-03-20T18:30:00', '2025-03-21T19:00:00'];
    const bins = coverageBins(files, { startMs: ms('2025-03-20'), endMs: ms('2025-03-25') });
    expect(coverageSummary(bins)).toBe('Coverage: 3 files in 2 of 120 hourly bins');
    const many = coverageBins(
      Array.from({ length: 1204 }, () => '2025-03-20T18:00:00'),
      { startMs: ms('2025-03-20'), endMs: ms('2025-03-25') },
    );
    expect(coverageSummary(many)).toBe('Coverage: 1,204 files in 1 of 120 hourly bins');
  });
});

describe('a bin’s span', () => {
  it('minutes and hours: start to end, the end’s day only when it differs', () => {
    const hours = scaleOf('2025-03-20', '2025-03-25');
    expect(describeBin(hours, 18)).toBe('2025-03-20 18:00 – 19:00 UT');
    expect(describeBin(hours, 23)).toBe('2025-03-20 23:00 – 2025-03-21 00:00 UT');
    expect(describeBinCount(hours, 18, 240)).toBe('2025-03-20 18:00 – 19:00 UT: 240 files');
    expect(describeBinCount(hours, 2, 0)).toBe('2025-03-20 02:00 – 03:00 UT: no files');
    expect(describeBinCount(hours, 2, 1)).toBe('2025-03-20 02:00 – 03:00 UT: 1 file');
  });

  it('days and weeks: the days they hold, inclusive', () => {
    const month = scaleOf('2025-01-01', '2025-06-01'); // 151 days: daily bins
    expect(month.size).toEqual({ unit: 'day', step: 1 });
    expect(describeBin(month, 0)).toBe('2025-01-01 UT');
    const year = scaleOf('2024-01-01', '2025-01-01');
    expect(describeBin(year, 0)).toBe('2024-01-01 – 2024-01-02 UT');
    const years = scaleOf('2020-01-01', '2023-01-01');
    expect(years.size).toEqual({ unit: 'week', step: 1 });
    expect(describeBin(years, 0)).toBe('2019-12-30 – 2020-01-05 UT');
  });

  it('months: the month, or the first and last of several', () => {
    expect(describeBin(scaleOf('2015-01-01', '2025-01-01'), 13)).toBe('2016-02 UT');
    expect(describeBin(scaleOf('1990-01-01', '2025-01-01'), 1)).toBe('1990-04 – 1990-06 UT');
    expect(describeBin(scaleOf('2015-01-01', '2025-01-01'), 500)).toBe('');
  });
});

describe('axis marks', () => {
  it('a week of hourly bins: each midnight, as month-day', () => {
    const marks = axisMarks(scaleOf('2025-03-17', '2025-03-24'), 10);
    expect(marks.map((mark) => mark.label)).toEqual(['03-17', '03-18', '03-19', '03-20', '03-21', '03-22', '03-23', '03-24']);
    expect(marks[0]!.ms).toBe(ms('2025-03-17'));
  });

  it('fewer marks at wider intervals when fewer fit; clock times within a day', () => {
    expect(axisMarks(scaleOf('2025-03-17', '2025-03-24'), 4).map((mark) => mark.label)).toEqual(['03-17', '03-19', '03-21', '03-23']);
    expect(axisMarks(scaleOf('2025-03-24', '2025-03-25'), 5).map((mark) => mark.label)).toEqual(['03-24', '06:00', '12:00', '18:00', '03-25']);
    expect(axisMarks(scaleOf('2025-03-24T19:00:00', '2025-03-24T21:00:00'), 8).map((mark) => mark.label)).toEqual([
      '19:00',
      '19:30',
      '20:00',
      '20:30',
      '21:00',
    ]);
  });

  it('ten years of monthly bins: years', () => {
    const marks = axisMarks(scaleOf('2015-01-01', '2025-01-01'), 12);
    expect(marks.map((mark) => mark.label)).toEqual(['2015', '2016', '2017', '2018', '2019', '2020', '2021', '2022', '2023', '2024', '2025']);
    expect(marks[1]!.ms).toBe(ms('2016-01-01'));
    // Every second year falls on the even ones.
    expect(axisMarks(scaleOf('2015-01-01', '2025-01-01'), 6).map((mark) => mark.label)).toEqual(['2016', '2018', '2020', '2022', '2024']);
  });

  it('a year: months, the year’s first written as the year', () => {
    expect(axisMarks(scaleOf('2024-01-01', '2025-01-01'), 13).map((mark) => mark.label)).toEqual([
      '2024',
      '2024-02',
      '2024-03',
      '2024-04',
      '2024-05',
      '2024-06',
      '2024-07',
      '2024-08',
      '2024-09',
      '2024-10',
      '2024-11',
      '2024-12',
      '2025',
    ]);
  });
});

describe('Carrington rotations on the axis', () => {
  it('names the rotation under way at the start, then each that begins inside the range', () => {
    const marks = rotationMarks({ startMs: ms('2025-02-15'), endMs: ms('2025-04-15') });
    expect(marks).toEqual([
      { rotation: 2294, ms: ms('2025-02-15'), starts: false },
      { rotation: 2295, ms: carringtonRotationStart(2295), starts: true },
      { rotation: 2296, ms: carringtonRotationStart(2296), starts: true },
    ]);
    expect(new Date(marks[1]!.ms).toISOString().slice(0, 16)).toBe('2025-03-02T11:59');
  });

  it('names just the rotation under way for a span inside one', () => {
    expect(rotationMarks({ startMs: ms('2025-03-24T19:00:00'), endMs: ms('2025-03-24T21:00:00') })).toEqual([
      { rotation: 2295, ms: ms('2025-03-24T19:00:00'), starts: false },
    ]);
  });

  it('counts the 135 rotations of ten years', () => {
    // 2158 began in December 2014; 2293 began on 2025-01-06, after the range.
    const marks = rotationMarks({ startMs: ms('2015-01-01'), endMs: ms('2025-01-01') });
    expect(marks.length).toBe(135);
    expect(marks[0]!.rotation).toBe(2158);
    expect(marks.at(-1)!.rotation).toBe(2292);
  });
});

describe('a span of bins', () => {
  it('runs from the first bin’s start to the last one’s end, in either order', () => {
    const hours = scaleOf('2025-03-20', '2025-03-25');
    expect(describeBins(hours, 18, 29)).toBe('2025-03-20 18:00 – 2025-03-21 06:00 UT');
    expect(describeBins(hours, 29, 18)).toBe('2025-03-20 18:00 – 2025-03-21 06:00 UT');
    expect(describeBins(scaleOf('2015-01-01', '2025-01-01'), 0, 11)).toBe('2015-01 – 2015-12 UT');
  });
});
