// The coverage timeline: one bar per filled bin (gaps are bins without one), the summary for screen readers, a
// bin's span and count on hover and by keyboard, a dragged or keyboard-picked span for the date filters, the
// Carrington rotations under the dates, bars split by campaign state, and in the window: above the results, its
// span going into the Start and End date fields, and no element per file however long the listing.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import type { FileEntry } from '../../src-shared/api/schemas';
import { breakdownByState, type CoverageState, type StateBreakdown } from '../../src-shared/coverage/state-breakdown';
import { coverageBins, type TimelineBins } from '../../src-shared/coverage/timeline-bins';
import type { TimeRange } from '../../src-shared/filters/ut-timestamp';
import CoverageTimeline from '../../src-renderer/lib/CoverageTimeline.svelte';
import { makeListing, type FakeContract } from './fake-contract';
import { renderApp } from './render-app';
import { descriptionOf } from './accessible-description';

const ms = (text: string): number => Date.parse(`${text}${text.length === 10 ? 'T00:00:00' : ''}Z`);

/** KCor-like days: files from 18:00 for `perDay` × 15 s, nothing at night. */
function observingDays(firstDay: string, days: number, perDay: number): FileEntry[] {
  const files: FileEntry[] = [];
  for (let d = 0; d < days; d++) {
    const day = new Date(ms(firstDay) + d * 86_400_000).toISOString().slice(0, 10);
    for (const file of makeListing({ instrument: 'kcor', product: 'pb', start: `${day}T18:00:00`, count: perDay }).files) files.push(file);
  }
  return files;
}

/** A week of March 2025, three filled hours a day (18:00 to 21:00): 21 of 168 hourly bins. */
const WEEK_FILES = observingDays('2025-03-17', 7, 720);
const WEEK = coverageBins(
  WEEK_FILES.map((file) => file['date-obs']),
  { startMs: ms('2025-03-17'), endMs: ms('2025-03-24') },
);

function renderTimeline(props: { bins?: TimelineBins; breakdown?: StateBreakdown; onSelectSpan?: (range: TimeRange, description: string) => void } = {}) {
  const view = render(CoverageTimeline, { props: { bins: WEEK, ...props } });
  const slider = screen.getByRole('slider', { name: 'Coverage timeline' });
  // jsdom lays nothing out: the plot is given a box, 840 px wide (5 px per hourly bin of the week).
  slider.getBoundingClientRect = () => ({ left: 0, top: 0, right: 840, bottom: 48, width: 840, height: 48, x: 0, y: 0, toJSON: () => ({}) });
  return { ...view, slider };
}

const bars = (container: HTMLElement): SVGRectElement[] => [...container.querySelectorAll<SVGRectElement>('rect.bar')];
/** The middle of bin `index` of the week, in the 840 px box. */
const xOfBin = (index: number): number => index * 5 + 2.5;

describe('the coverage timeline', () => {
  it('draws one bar per bin with files: the nights between observing days have none', () => {
    const { container } = renderTimeline();
    const drawn = bars(container).map((bar) => Number(bar.dataset['bin']));
    const expected = Array.from({ length: 7 }, (_, day) => [18, 19, 20].map((hour) => day * 24 + hour)).flat();
    expect(drawn).toEqual(expected);
    // The faint baseline runs under the empty bins too.
    expect(container.querySelector('line.baseline')).not.toBeNull();
  });

  it('gives a bin with a single file a visible bar', () => {
    const files = ['2025-03-24T18:00:00', ...Array.from({ length: 5000 }, () => '2025-03-24T20:00:00')];
    const { container } = renderTimeline({ bins: coverageBins(files, { startMs: ms('2025-03-24'), endMs: ms('2025-03-25') }) });
    const [lonely, full] = bars(container);
    expect(Number(lonely!.getAttribute('height'))).toBeGreaterThanOrEqual(5);
    expect(Number(full!.getAttribute('height'))).toBeGreaterThan(90);
  });

  it('sums itself up for screen readers and says how to use the keys', () => {
    const { slider } = renderTimeline({ onSelectSpan: () => {} });
    expect(descriptionOf(slider)).toContain('Coverage: 5,040 files in 21 of 168 hourly bins');
    expect(descriptionOf(slider)).toContain('Shift with an arrow selects a span');
    screen.getByText('21 of 168 hourly bins hold files');
  });

  it('marks the Carrington rotations under the dates', () => {
    const { container } = renderTimeline();
    const rotations = within(container.querySelector<HTMLElement>('.rotations')!)
      .getAllByText(/^CR \d+$/)
      .map((mark) => mark.textContent);
    // 2025-03-17 to 03-24 lies inside rotation 2295 (2025-03-02 to 03-29).
    expect(rotations).toEqual(['CR 2295']);
    const dates = [...container.querySelectorAll('.axis:not(.rotations) .mark')].map((mark) => mark.textContent);
    expect(dates).toContain('03-20');
  });

  it('shows a bin’s span and count while the pointer is over it', async () => {
    const { container, slider } = renderTimeline();
    await fireEvent.pointerMove(slider, { clientX: xOfBin(2 * 24 + 19), pointerId: 1 });
    expect(container.querySelector('.tip')?.textContent).toBe('2025-03-19 19:00 – 20:00 UT: 240 files');
    await fireEvent.pointerMove(slider, { clientX: xOfBin(2 * 24 + 3), pointerId: 1 });
    expect(container.querySelector('.tip')?.textContent).toBe('2025-03-19 03:00 – 04:00 UT: no files');
    await fireEvent.pointerLeave(slider);
    expect(container.querySelector('.tip')).toBeNull();
  });

  it('dragging across it picks the span, from the first bin’s start to the last one’s end', async () => {
    const onSelectSpan = vi.fn();
    const { container, slider } = renderTimeline({ onSelectSpan });
    await fireEvent.pointerDown(slider, { clientX: xOfBin(24 + 18), button: 0, pointerId: 1 });
    await fireEvent.pointerMove(slider, { clientX: xOfBin(3 * 24 + 6), pointerId: 1 });
    // While dragging, the tooltip tells the span being picked.
    expect(container.querySelector('.tip')?.textContent).toBe('2025-03-18 18:00 – 2025-03-20 07:00 UT: 1,440 files');
    expect(onSelectSpan).not.toHaveBeenCalled();
    await fireEvent.pointerUp(slider, { clientX: xOfBin(3 * 24 + 6), pointerId: 1 });
    expect(onSelectSpan).toHaveBeenCalledOnce();
    expect(onSelectSpan).toHaveBeenCalledWith(
      { startMs: ms('2025-03-18T18:00:00'), endMs: ms('2025-03-20T07:00:00') },
      '2025-03-18 18:00 – 2025-03-20 07:00 UT',
    );
    expect(container.querySelector('rect.picked')).not.toBeNull();
    // Once picked, hovering tells single bins again.
    await fireEvent.pointerMove(slider, { clientX: xOfBin(4 * 24 + 18), pointerId: 1 });
    expect(container.querySelector('.tip')?.textContent).toBe('2025-03-21 18:00 – 19:00 UT: 240 files');
  });

  it('dragging leftwards picks the same span', async () => {
    const onSelectSpan = vi.fn();
    const { slider } = renderTimeline({ onSelectSpan });
    await fireEvent.pointerDown(slider, { clientX: xOfBin(3 * 24 + 6), button: 0, pointerId: 1 });
    await fireEvent.pointerMove(slider, { clientX: xOfBin(24 + 18), pointerId: 1 });
    await fireEvent.pointerUp(slider, { clientX: xOfBin(24 + 18), pointerId: 1 });
    expect(onSelectSpan).toHaveBeenCalledWith(
      { startMs: ms('2025-03-18T18:00:00'), endMs: ms('2025-03-20T07:00:00') },
      '2025-03-18 18:00 – 2025-03-20 07:00 UT',
    );
  });

  it('keyboard: focus lands on the first bin with files, arrows move, Shift+arrows select, Enter picks', async () => {
    const onSelectSpan = vi.fn();
    const { slider } = renderTimeline({ onSelectSpan });
    await fireEvent.focus(slider);
    expect(slider.getAttribute('aria-valuetext')).toBe('2025-03-17 18:00 – 19:00 UT: 240 files');
    expect(slider.getAttribute('aria-valuenow')).toBe('18');
    await fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(slider.getAttribute('aria-valuetext')).toBe('2025-03-17 17:00 – 18:00 UT: no files');
    await fireEvent.keyDown(slider, { key: 'ArrowRight' });
    for (let i = 0; i < 2; i++) await fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true });
    expect(slider.getAttribute('aria-valuetext')).toBe('Selected 2025-03-17 18:00 – 21:00 UT: 720 files');
    await fireEvent.keyDown(slider, { key: 'Enter' });
    expect(onSelectSpan).toHaveBeenCalledWith({ startMs: ms('2025-03-17T18:00:00'), endMs: ms('2025-03-17T21:00:00') }, '2025-03-17 18:00 – 21:00 UT');
    // End goes to the last bin; Enter without a selection picks the bin the keyboard is on.
    await fireEvent.keyDown(slider, { key: 'Escape' });
    await fireEvent.keyDown(slider, { key: 'End' });
    expect(slider.getAttribute('aria-valuenow')).toBe('167');
    await fireEvent.keyDown(slider, { key: 'Enter' });
    expect(onSelectSpan).toHaveBeenLastCalledWith({ startMs: ms('2025-03-23T23:00:00'), endMs: ms('2025-03-24') }, '2025-03-23 23:00 – 2025-03-24 00:00 UT');
  });

  it('without onSelectSpan it only shows: a drag picks nothing', async () => {
    const { container, slider } = renderTimeline();
    await fireEvent.pointerDown(slider, { clientX: xOfBin(18), button: 0, pointerId: 1 });
    await fireEvent.pointerUp(slider, { clientX: xOfBin(40), pointerId: 1 });
    expect(container.querySelector('rect.picked')).toBeNull();
    expect(screen.queryByText(/Drag across/)).toBeNull();
  });
});

describe('a campaign’s timeline, split by state', () => {
  // Made-up states: the first day on disk, the second queued but for a failed hour, the rest missing.
  const dateObs = WEEK_FILES.map((file) => file['date-obs']);
  const stateOf = (index: number): CoverageState => {
    const day = dateObs[index]!.slice(0, 10);
    if (day === '2025-03-17') return 'onDisk';
    if (day === '2025-03-18') return dateObs[index]!.slice(11, 13) === '20' ? 'failed' : 'queued';
    return 'missing';
  };
  const breakdown = breakdownByState(WEEK, dateObs, stateOf);

  it('stacks each bar by state, with a legend, and the tooltip names the states', async () => {
    const { container, slider } = renderTimeline({ breakdown });
    const byState = (state: string): number[] =>
      [...container.querySelectorAll<SVGRectElement>(`rect.bar.state-${state}`)].map((bar) => Number(bar.dataset['bin']));
    expect(byState('onDisk')).toEqual([18, 19, 20]);
    expect(byState('queued')).toEqual([42, 43]);
    expect(byState('failed')).toEqual([44]);
    expect(byState('missing')).toHaveLength(15);
    const legend = screen.getByRole('list', { name: 'States' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['on disk', 'queued', 'failed', 'missing']);
    await fireEvent.pointerMove(slider, { clientX: xOfBin(44), pointerId: 1 });
    expect(container.querySelector('.tip')?.textContent).toBe('2025-03-18 20:00 – 21:00 UT: 240 files (240 failed)');
  });

  it('shows files that differ from a shared file list apart from those on disk, and names them in the legend', async () => {
    const dates = ['2025-03-24T18:00:00', '2025-03-24T18:00:10', '2025-03-24T18:00:20'];
    const states: CoverageState[] = ['onDisk', 'differs', 'differs'];
    const bins = coverageBins(dates, { startMs: ms('2025-03-24'), endMs: ms('2025-03-25') });
    const { container } = renderTimeline({ bins, breakdown: breakdownByState(bins, dates, (index) => states[index]!) });
    expect([...container.querySelectorAll('rect.bar')].map((bar) => [...bar.classList].find((name) => name.startsWith('state-')))).toEqual([
      'state-onDisk',
      'state-differs',
    ]);
    const legend = screen.getByRole('list', { name: 'States' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['on disk', 'differ from the shared list', 'queued', 'failed', 'missing']);
  });

  it('splits a bar in proportion, the states stacked in order from the bottom', () => {
    const mixed = ['2025-03-24T18:00:00', '2025-03-24T18:00:10', '2025-03-24T18:00:20', '2025-03-24T18:00:30'];
    const states: CoverageState[] = ['onDisk', 'onDisk', 'queued', 'missing'];
    const bins = coverageBins(mixed, { startMs: ms('2025-03-24'), endMs: ms('2025-03-25') });
    const { container } = renderTimeline({ bins, breakdown: breakdownByState(bins, mixed, (index) => states[index]!) });
    const segments = [...container.querySelectorAll<SVGRectElement>('rect.bar')].map((bar) => ({
      state: [...bar.classList].find((name) => name.startsWith('state-')),
      y: Number(bar.getAttribute('y')),
      height: Number(bar.getAttribute('height')),
    }));
    expect(segments.map((segment) => segment.state)).toEqual(['state-onDisk', 'state-queued', 'state-missing']);
    expect(segments[0]!.height).toBeCloseTo(2 * segments[1]!.height);
    expect(segments[0]!.y + segments[0]!.height).toBeCloseTo(100);
    expect(segments[1]!.y + segments[1]!.height).toBeCloseTo(segments[0]!.y);
  });
});

describe('the timeline in Browse', () => {
  /** The app with KCor pB chosen, searching the dates given, the fake answering with `files`. */
  async function searchWith(files: FileEntry[], dates: { start: string; end: string } = { start: '2025-03-17', end: '2025-03-24' }): Promise<FakeContract> {
    const { fake } = await renderApp();
    fake.handle('search:start', (query) => fake.keepSearch(query, files));
    await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'kcor' } });
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).toBe('pb'));
    await fireEvent.input(screen.getByLabelText('Start date'), { target: { value: dates.start } });
    await fireEvent.input(screen.getByLabelText('End date'), { target: { value: dates.end } });
    await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('grid', { name: 'Files found' });
    return fake;
  }

  it('sits above the results, over the searched range', async () => {
    await searchWith(WEEK_FILES);
    const slider = await screen.findByRole('slider', { name: 'Coverage timeline' });
    expect(descriptionOf(slider)).toContain('Coverage: 5,040 files in 21 of 168 hourly bins');
    const results = screen.getByRole('region', { name: 'Results' });
    expect(slider.compareDocumentPosition(within(results).getByRole('grid')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a picked span goes into the Start and End date fields; List this span searches it, Undo puts the dates back', async () => {
    const fake = await searchWith(WEEK_FILES);
    const slider = await screen.findByRole('slider', { name: 'Coverage timeline' });
    await fireEvent.focus(slider);
    await fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true });
    await fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true });
    await fireEvent.keyDown(slider, { key: 'Enter' });
    expect((screen.getByLabelText('Start date') as HTMLInputElement).value).toBe('2025-03-17T18:00:00');
    expect((screen.getByLabelText('End date') as HTMLInputElement).value).toBe('2025-03-17T21:00:00');
    const notice = screen.getByText(/Start and End date set to 2025-03-17 18:00 – 21:00 UT\./).closest<HTMLElement>('[role="status"]')!;

    await fireEvent.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect((screen.getByLabelText('Start date') as HTMLInputElement).value).toBe('2025-03-17');
    expect((screen.getByLabelText('End date') as HTMLInputElement).value).toBe('2025-03-24');
    expect(screen.queryByText(/Start and End date set to/)).toBeNull();

    await fireEvent.keyDown(slider, { key: 'Enter' });
    const again = screen.getByText(/Start and End date set to/).closest<HTMLElement>('[role="status"]')!;
    await fireEvent.click(within(again).getByRole('button', { name: 'List this span' }));
    await waitFor(() => expect(fake.callsTo('search:start')).toHaveLength(2));
    expect(fake.callsTo('search:start')[1]!.filters).toMatchObject({ 'start-date': '2025-03-17T18:00:00', 'end-date': '2025-03-17T21:00:00' });
    // The new listing's timeline has no notice of the last one's pick.
    await waitFor(() => expect(screen.queryByText(/Start and End date set to/)).toBeNull());
  });

  it('follows the listing where no dates were set, and whole days picked go in as bare dates', async () => {
    await searchWith(observingDays('2024-11-12', 133, 4), { start: '', end: '' });
    const slider = await screen.findByRole('slider', { name: 'Coverage timeline' });
    expect(descriptionOf(slider)).toContain('Coverage: 532 files in 133 of 133 daily bins');
    await fireEvent.focus(slider);
    await fireEvent.keyDown(slider, { key: 'Enter' });
    expect((screen.getByLabelText('Start date') as HTMLInputElement).value).toBe('2024-11-12');
    expect((screen.getByLabelText('End date') as HTMLInputElement).value).toBe('2024-11-13');
    screen.getByText(/Start and End date set to 2024-11-12 UT\./);
  });

  it('draws a few hundred elements at most for a 100,000-file listing', async () => {
    const files = observingDays('2024-11-12', 139, 720).slice(0, 100_000);
    await searchWith(files);
    const timeline = (await screen.findByRole('slider', { name: 'Coverage timeline' })).closest<HTMLElement>('.coverage')!;
    expect(timeline.querySelectorAll('*').length).toBeLessThan(600);
    expect(descriptionOf(screen.getByRole('slider'))).toContain('Coverage: 100,000 files');
  });
});
