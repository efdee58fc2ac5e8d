// Thumbnails in the Downloads list: drawn for the finished files in view only, each file read once and kept by job
// id (scrolling back asks for nothing), none for a file that cannot be shown, and no message about it either.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { THUMBNAIL_PIXELS } from '../../src-renderer/quicklook/quicklook-thumbnails.svelte';
import { FakeContract, makeJob } from './fake-contract';
import { renderApp } from './render-app';
import { drawnOn, useCanvasAndDialog } from './canvas-and-dialog';
import { gradientFits, NOT_FITS } from './fits-files';

useCanvasAndDialog();

const ROW_HEIGHT = 32;
const name = (id: number) => `20250324_${String(180000 + id).padStart(6, '0')}_kcor_l2_pb.fts`;

async function openDownloads(count: number, prepare: (fake: FakeContract) => void = () => {}) {
  // Finished at the same moment, so the list (newest first) keeps them in queue order: file 1 at the top.
  const jobs = Array.from({ length: count }, (_, i) => makeJob(i + 1, name(i + 1), 'done', { finishedAt: '2025-03-24T22:00:00.000Z' }));
  const fake = new FakeContract({ jobs });
  const bytes = gradientFits({ width: 96, height: 64 });
  for (const job of jobs) fake.fileBytes.set(job.id, bytes);
  prepare(fake);
  await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
  const table = await screen.findByRole('table', { name: 'Download queue' });
  return { fake, table };
}

function rowOf(table: HTMLElement, filename: string): HTMLElement {
  return within(table).getByText(filename).closest<HTMLElement>('[role="row"]')!;
}

function thumbnailOf(row: HTMLElement): HTMLCanvasElement | null {
  return row.querySelector('canvas');
}

function readIds(fake: FakeContract): number[] {
  return fake.callsTo('files:read').map(({ id }) => id);
}

describe('thumbnails in the Downloads list', () => {
  it('draws a small picture of each finished file in view, reading each file once', async () => {
    const { fake, table } = await openDownloads(200);
    const row = rowOf(table, name(1));
    await waitFor(() => expect(Number(thumbnailOf(row)?.dataset['drawn'])).toBe(1));
    const drawn = drawnOn(thumbnailOf(row))!;
    expect(Math.max(drawn.width, drawn.height)).toBe(THUMBNAIL_PIXELS);
    expect([drawn.width, drawn.height]).toEqual([48, 32]);

    const rendered = within(table).getAllByRole('row').length - 1;
    await waitFor(() => expect(new Set(readIds(fake)).size).toBe(rendered));
    // Only the rows in view (and the few kept around them) asked: not the 200 in the list, and none twice.
    expect(rendered).toBeLessThan(50);
    expect(readIds(fake)).toHaveLength(new Set(readIds(fake)).size);
  });

  it('asks for the rows scrolled into view and nothing again when scrolling back', async () => {
    const { fake, table } = await openDownloads(200);
    const first = within(table).getAllByRole('row').length - 1;
    await waitFor(() => expect(readIds(fake)).toHaveLength(first));

    table.scrollTop = ROW_HEIGHT * 150;
    await fireEvent.scroll(table);
    await within(table).findByText(name(151));
    await waitFor(() => expect(readIds(fake)).toContain(151));
    await waitFor(() => expect(Number(thumbnailOf(rowOf(table, name(151)))?.dataset['drawn'])).toBe(1));
    const afterScroll = readIds(fake);
    // Rows scrolled past without stopping were never in view: rows 40 to 120 are not read.
    expect(afterScroll.filter((id) => id > first + 10 && id < 120)).toEqual([]);

    table.scrollTop = 0;
    await fireEvent.scroll(table);
    const row = rowOf(table, name(1));
    // The kept thumbnail is drawn at once, from memory.
    await waitFor(() => expect(Number(thumbnailOf(row)?.dataset['drawn'])).toBe(1));
    expect(readIds(fake)).toEqual(afterScroll);
  });

  it('makes a few at a time and forgets the rows that left the view before their turn', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { fake, table } = await openDownloads(200, (fake) => {
      const bytes = gradientFits();
      fake.handle('files:read', async ({ id }) => {
        await gate;
        return { name: name(id), bytes };
      });
    });
    await waitFor(() => expect(readIds(fake)).toHaveLength(2));
    table.scrollTop = ROW_HEIGHT * 150;
    await fireEvent.scroll(table);
    await within(table).findByText(name(151));
    open();
    await waitFor(() => expect(Number(thumbnailOf(rowOf(table, name(151)))?.dataset['drawn'])).toBe(1));
    // The two already under way finished; the rest of the first screenful was never read.
    expect(readIds(fake).filter((id) => id < 100)).toEqual([1, 2]);
  });

  it('shows nothing for a file that cannot be shown, and says nothing about it', async () => {
    const { fake, table } = await openDownloads(3, (fake) => {
      fake.fileBytes.set(2, NOT_FITS);
      fake.fileBytes.delete(3);
    });
    await waitFor(() => expect(readIds(fake).sort()).toEqual([1, 2, 3]));
    await waitFor(() => expect(thumbnailOf(rowOf(table, name(1)))).not.toBeNull());
    expect(thumbnailOf(rowOf(table, name(2)))).toBeNull();
    expect(thumbnailOf(rowOf(table, name(3)))).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(table).queryByText(/not a FITS file|no longer in the list/)).toBeNull();
  });

  it('reads nothing while the Downloads screen is not on view (it stays mounted behind the others)', async () => {
    const jobs = [makeJob(1, name(1), 'done'), makeJob(2, name(2), 'done')];
    const fake = new FakeContract({ jobs });
    fake.fileBytes.set(1, gradientFits());
    fake.fileBytes.set(2, gradientFits());
    await renderApp(fake);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readIds(fake)).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    await waitFor(() => expect(readIds(fake).sort()).toEqual([1, 2]));
  });

  it('makes none for a file still on its way', async () => {
    const jobs = [makeJob(1, name(1), 'active', { bytesReceived: 1000 }), makeJob(2, name(2), 'queued')];
    const fake = new FakeContract({ jobs });
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Downloads' }));
    const table = await screen.findByRole('table', { name: 'Download queue' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readIds(fake)).toEqual([]);
    expect(table.querySelector('canvas')).toBeNull();
    expect(within(table).queryByRole('button', { name: /^Quick look/ })).toBeNull();
  });
});
