// Everything that shows images of downloaded files: one FITS worker shared by the quick-look, the Downloads list's
// thumbnails and the sequence player. Created once per window (App.svelte) and shared through Svelte context.
import { createContext } from 'svelte';
import type { ApiClient } from '../lib/api';
import { createFitsClient, type FitsClient } from './fits-worker-client';
import { QuickLookStore } from './quicklook.svelte';
import { SequencePlayerStore } from './quicklook-player.svelte';
import { ThumbnailStore } from './quicklook-thumbnails.svelte';

export class QuickLookState {
  readonly viewer: QuickLookStore;
  readonly player: SequencePlayerStore;
  readonly thumbnails: ThumbnailStore;

  constructor(
    client: ApiClient,
    readonly fits: FitsClient = createFitsClient(),
  ) {
    this.viewer = new QuickLookStore(client, fits);
    this.player = new SequencePlayerStore(client, fits);
    this.thumbnails = new ThumbnailStore(client, fits);
  }

  /**
   * Starts the FITS worker while the window has nothing else to do and warms its code up, so the first quick-look
   * shows as fast as later ones. Only where there is a real worker: in the page's own thread (the renderer's tests)
   * it would only slow the page down.
   */
  warmUpWhenIdle(): void {
    if (typeof Worker !== 'function' || typeof requestIdleCallback !== 'function') return;
    requestIdleCallback(() => void this.fits.warmUp().catch(() => undefined), { timeout: 5_000 });
  }

  /** Stops the worker (the window is going away). */
  dispose(): void {
    this.player.close();
    this.viewer.close();
    this.fits.dispose();
  }
}

/** The window's QuickLookState: App.svelte provides it, the dialogs and thumbnails use it (throws outside <App>). */
export const [useQuickLook, provideQuickLook] = createContext<QuickLookState>();
