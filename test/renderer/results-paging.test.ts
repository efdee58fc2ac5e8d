// Browse's results read by pages from the search the core keeps: the first rows show while the listing still
// arrives, the count grows and says when it is complete, and the window holds only the pages near the view.
import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { RESULT_PAGE_MAX_ROWS } from '../../src-shared/search/result-page';
import { descriptionOf } from './accessible-description';
import { cellText, filesOf, searchWith } from './searched-app';

const ROW = 28;

describe('results read by pages', () => {
  it('shows the first rows while the listing still arrives, with a count that grows and says when it is complete', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files.slice(0, 150), false);
    await screen.findByText('150 files so far');
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[0]!.filename));
    expect(grid.getAttribute('aria-rowcount')).toBe(String(150 + 1));

    fake.growSearch(files.slice(150, 600), false);
    await screen.findByText('600 files so far');
    fake.growSearch(files.slice(600), true);
    await screen.findByText('1,000 files');
    expect(grid.getAttribute('aria-rowcount')).toBe(String(1000 + 1));

    // The rows past the first answer are read when they come into view, the last one included.
    grid.scrollTop = ROW * 1000;
    await fireEvent.scroll(grid);
    await waitFor(() => expect(cellText(grid, 999)).toContain(files[999]!.filename));
  });

  it('asks for the pages in view only, however long the list', async () => {
    const files = filesOf(100_000);
    const { fake, grid } = await searchWith(files, true);
    await screen.findByText('100,000 files');
    for (const to of [40_000, 99_990, 0]) {
      grid.scrollTop = ROW * to;
      await fireEvent.scroll(grid);
      await waitFor(() => expect(cellText(grid, to)).toContain(files[to]!.filename));
    }
    const pages = fake.callsTo('search:page');
    expect(pages.every((page) => page.limit <= RESULT_PAGE_MAX_ROWS)).toBe(true);
    // Each page asked for once: the pages near the view, not the listing.
    const rowsAsked = pages.reduce((sum, page) => sum + page.limit, 0);
    expect(rowsAsked).toBeLessThan(3000);
  });

  it('downloads a shift-click range of a listing still arriving as a range, not a list of files', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files.slice(0, 300), false, { session: { signedIn: true, email: 'ada@example.org', expiresAt: null } });
    await screen.findByText('300 files so far');
    await fireEvent.click(grid.querySelector('#file-row-2')!);
    await fireEvent.click(grid.querySelector('#file-row-12')!, { shiftKey: true });
    // The rows that arrive later come unselected; the ones chosen stay chosen.
    fake.growSearch(files.slice(300), true);
    await screen.findByText('1,000 files');
    screen.getByText('11 selected');
    await fireEvent.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByText(/11 files queued/);
    expect(fake.callsTo('downloads:enqueue')).toEqual([
      { searchId: 'search-1', selection: { sort: { key: 'listed', direction: 'ascending' }, ranges: [{ first: 2, last: 12 }] } },
    ]);
  });
});

describe('a listing still arriving', () => {
  it('asks for the first rows before the timeline: both take the core’s time and the window’s', async () => {
    const files = filesOf(1000);
    const { fake } = await searchWith(files.slice(0, 150), false);
    await waitFor(() => expect(fake.callsTo('search:timeline')).toHaveLength(1));
    const asked = fake.calls.map((call) => call.channel).filter((channel) => channel === 'search:page' || channel === 'search:timeline');
    expect(asked.indexOf('search:page')).toBeGreaterThanOrEqual(0);
    expect(asked.indexOf('search:page')).toBeLessThan(asked.indexOf('search:timeline'));
  });

  it('bins its timeline again now and then while it arrives, not on every batch', async () => {
    let now = 1_000_000;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const files = filesOf(1000);
      const { fake } = await searchWith(files.slice(0, 150), false);
      await screen.findByText('150 files so far');
      const slider = await screen.findByRole('slider', { name: 'Coverage timeline' });
      await waitFor(() => expect(descriptionOf(slider)).toContain('Coverage: 150 files'));
      // Within the refresh interval a batch does not ask for the timeline again.
      fake.growSearch(files.slice(150, 300), false);
      await screen.findByText('300 files so far');
      expect(fake.callsTo('search:timeline')).toHaveLength(1);
      now += 1000;
      fake.growSearch(files.slice(300, 600), false);
      await screen.findByText('600 files so far');
      await waitFor(() => expect(descriptionOf(slider)).toContain('Coverage: 600 files'));
      expect(fake.callsTo('search:timeline')).toHaveLength(2);
      // An answer still on its way is waited for: a request is not sent again over it.
      const answer = fake.hold('search:timeline');
      now += 1000;
      fake.growSearch(files.slice(600, 700), false);
      await screen.findByText('700 files so far');
      await waitFor(() => expect(fake.callsTo('search:timeline')).toHaveLength(3));
      now += 1000;
      fake.growSearch(files.slice(700, 800), false);
      await screen.findByText('800 files so far');
      expect(fake.callsTo('search:timeline')).toHaveLength(3);
      answer();
      await waitFor(() => expect(descriptionOf(slider)).toContain('Coverage: 800 files'));
    } finally {
      clock.mockRestore();
    }
  });

  it('stops with Stop listing, keeps the rows so far and says why the count will not grow', async () => {
    const files = filesOf(1000);
    const { fake, grid } = await searchWith(files.slice(0, 200), false);
    await screen.findByText('200 files so far');
    await fireEvent.click(screen.getByRole('button', { name: 'Stop listing' }));
    expect(fake.callsTo('search:cancel')).toEqual([{ searchId: 'search-1' }]);
    await screen.findByText('The search was stopped before the listing ended; the files listed until then are shown.');
    screen.getByText('200 files');
    expect(screen.queryByRole('button', { name: 'Stop listing' })).toBeNull();
    // The timeline is binned again over the rows kept when the listing stopped.
    await waitFor(() => expect(fake.callsTo('search:timeline')).toHaveLength(2));
    await waitFor(() => expect(cellText(grid, 0)).toContain(files[0]!.filename));
  });
});
