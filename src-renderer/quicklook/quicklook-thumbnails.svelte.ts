// Thumbnails of finished downloads for the Downloads list. Only rows in view ask for one; each is made once (read,
// shrunk and stretched by the FITS worker), a few at a time, and kept by job id, so scrolling back shows it at once.
// A row that leaves the view before its turn is dropped from the queue. A file that cannot be shown gets no
// thumbnail and no message: the quick-look says why when asked.
import { SvelteMap } from 'svelte/reactivity';
import type { ApiClient } from '../lib/api';
import type { FitsClient } from './fits-worker-client';
import type { RenderedImage } from './workers/fits-protocol';
import { DEFAULT_DISPLAY } from './quicklook-display';

/** Canvas pixels of a thumbnail's longer side: shown at half that in CSS pixels, sharp on a 2x screen. */
export const THUMBNAIL_PIXELS = 48;
/** Thumbnails made at once: each reads a whole file, which must not crowd out the window's other calls. */
const MADE_AT_ONCE = 2;
/** Thumbnails kept (a few MB): far more than a screenful, so scrolling back never asks again in practice. */
const KEPT_THUMBNAILS = 2000;

export type Thumbnail = { status: 'ready'; image: RenderedImage } | { status: 'failed' };

export class ThumbnailStore {
  private readonly made = new SvelteMap<number, Thumbnail>();
  // The queue's bookkeeping, not shown: only `made` is read by the rows.
  /** Job id to how many rows show it now. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly wanted = new Map<number, number>();
  private readonly queue: number[] = [];
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly making = new Set<number>();

  constructor(
    private readonly client: ApiClient,
    private readonly fits: FitsClient,
  ) {}

  /** The thumbnail of a job, once made (reactive). */
  get(jobId: number): Thumbnail | undefined {
    return this.made.get(jobId);
  }

  /** A row in view wants the job's thumbnail; call the returned function when it leaves the view. */
  want(jobId: number): () => void {
    this.wanted.set(jobId, (this.wanted.get(jobId) ?? 0) + 1);
    if (!this.made.has(jobId) && !this.making.has(jobId) && !this.queue.includes(jobId)) this.queue.push(jobId);
    this.pump();
    return () => {
      const rows = (this.wanted.get(jobId) ?? 1) - 1;
      if (rows > 0) this.wanted.set(jobId, rows);
      else this.wanted.delete(jobId);
    };
  }

  private pump(): void {
    while (this.making.size < MADE_AT_ONCE) {
      const next = this.queue.shift();
      if (next === undefined) return;
      if (!this.wanted.has(next) || this.made.has(next)) continue;
      this.making.add(next);
      void this.make(next).finally(() => {
        this.making.delete(next);
        this.pump();
      });
    }
  }

  private async make(jobId: number): Promise<void> {
    let thumbnail: Thumbnail = { status: 'failed' };
    try {
      const read = await this.client.invoke('files:read', { id: jobId });
      if (read.ok) thumbnail = { status: 'ready', image: await this.fits.thumbnail(read.value.bytes, read.value.name, THUMBNAIL_PIXELS, DEFAULT_DISPLAY) };
    } catch {
      // Not FITS, cut short, no image, or the viewer stopped: no thumbnail.
    }
    this.made.set(jobId, thumbnail);
    for (const oldest of this.made.keys()) {
      if (this.made.size <= KEPT_THUMBNAILS) break;
      this.made.delete(oldest);
    }
  }
}
