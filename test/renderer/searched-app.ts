// The whole window searched for KCor pB, the fake core keeping `first` as the search (and, unless `complete`, more to
// come through fake.growSearch): for tests of Browse's results read by pages.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { expect } from 'vitest';
import type { FileEntry } from '../../src-shared/api/schemas';
import { makeListing, type FakeOptions } from './fake-contract';
import { renderApp } from './render-app';

export function filesOf(count: number): FileEntry[] {
  return makeListing({ instrument: 'kcor', product: 'pb', start: '2025-03-24', count }).files;
}

export async function searchWith(first: readonly FileEntry[], complete: boolean, options: FakeOptions = {}) {
  const rendered = await renderApp(options);
  rendered.fake.handle('search:start', (query) => rendered.fake.keepSearch(query, [...first], complete));
  await fireEvent.change(screen.getByRole('combobox', { name: 'Instrument' }), { target: { value: 'kcor' } });
  await waitFor(() => expect((screen.getByRole('combobox', { name: 'Product' }) as HTMLSelectElement).value).toBe('pb'));
  await fireEvent.click(screen.getByRole('button', { name: 'Search' }));
  const grid = await screen.findByRole('grid', { name: 'Files found' });
  return { ...rendered, grid };
}

/** The text of the row shown at `index`, its cells joined; '' when it is not rendered. */
export function cellText(grid: HTMLElement, index: number): string {
  const row = grid.querySelector<HTMLElement>(`#file-row-${index}`);
  return row
    ? within(row)
        .getAllByRole('gridcell')
        .map((cell) => cell.textContent?.trim() ?? '')
        .join(' ')
    : '';
}
