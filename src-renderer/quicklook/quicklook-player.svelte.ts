// The sequence player: the downloaded files of a search or a campaign in time order, stepped through or played at a
// chosen rate, all frames with one clip (taken from the first frame, or from the frame the user picks), optionally
// as a running difference (each frame minus the one before it). Frames are made one at a time by a single pump that
// always serves the frame on screen first, then the next few ahead; only a handful of rendered frames are kept here
// and of decoded ones in the worker, so a sequence of thousands of files costs the memory of a few.
import type { CampaignFileView } from '../../src-shared/contract/contract';
import type { DownloadedFrame } from '../../src-shared/downloads/downloaded-frames';
import type { ClipRange } from '../../src-science/fits/image-stretch';
import type { ApiClient } from '../lib/api';
import type { FitsClient } from './fits-worker-client';
import { Request } from '../lib/request.svelte';
import type { AxesAnswer, DisplayChoice, OverlayAnswer, RenderedImage } from './workers/fits-protocol';
import { overlayRadii, viewKey, wantsOverlay, type ViewOptions } from './view-options';
import { RememberedView } from './remembered-view.svelte';
import { messageOf } from './quicklook.svelte';
import { DEFAULT_DISPLAY } from './quicklook-display';
import { PixelReadout } from './pixel-readout.svelte';
import { exportMovie, type ExportedMovie } from './movie-export';

export type PlayerFrame = DownloadedFrame;

/** Frames made ahead of the one on screen. */
export const PREFETCH_FRAMES = 3;
/** Rendered frames kept: the one on screen, the one before it and those made ahead. */
export const KEPT_RENDERED_FRAMES = PREFETCH_FRAMES + 2;
export const FPS_RANGE = { min: 1, max: 30, initial: 5 } as const;

const NOTHING_DOWNLOADED = 'None of the files listed is downloaded yet: download some, then press Play downloaded.';
const NOTHING_ON_DISK = 'No file of this campaign is on disk yet: press Sync, then Play once files have arrived.';

export class SequencePlayerStore {
  isOpen = $state(false);
  /** What is played: "Campaign CME watch", "Downloaded files of kcor pb". */
  title = $state('');
  frames = $state.raw<PlayerFrame[]>([]);
  /** The frame asked for; `shownIndex` is the one on screen (the previous stays up while the next is made). */
  index = $state(0);
  shownIndex = $state<number | null>(null);
  image = $state.raw<RenderedImage | null>(null);
  /** The pixel under the pointer in the frame on screen (its own value, also in a running difference). */
  readonly readout = new PixelReadout(async (pixel) => {
    const frame = this.shownIndex === null ? undefined : this.frames[this.shownIndex];
    if (!frame) return null;
    const reading = await this.fits.framePixel(frame.jobId, pixel.x, pixel.y);
    return 'missing' in reading ? null : reading;
  });
  /** Colour map and overlays, remembered per instrument (that of the first frame read). */
  private readonly views = new RememberedView();
  /** The lines over the frame on screen (each frame has its own pointing), while some are shown. */
  overlayAnswer = $state.raw<OverlayAnswer | null>(null);
  private outlined = 0;
  /** Frames encoded of the movie being exported; null while none is. */
  exportProgress = $state.raw<{ done: number; total: number } | null>(null);
  private exportAbort: AbortController | null = null;
  playing = $state(false);
  fps = $state<number>(FPS_RANGE.initial);
  difference = $state(false);
  display = $state.raw<DisplayChoice>(DEFAULT_DISPLAY);
  /** The clip every frame shares; null until the frame it comes from has been made. */
  clip = $state.raw<ClipRange | null>(null);
  /** The frame the clip is taken from: the first, unless the user chose another with "Use this frame". */
  clipFrom = $state(0);
  /** The frame asked for is being made. */
  private frameLoading = $state(false);
  /** Why the frame asked for cannot be shown. */
  private frameError = $state<string | null>(null);
  /** Why there is nothing to play. */
  emptyMessage = $state<string | null>(null);

  /** With a running difference the first frame has nothing to subtract, so it is never shown. */
  firstIndex = $derived(this.difference ? 1 : 0);

  /** A campaign's files on disk; opening something else drops the answer. */
  private readonly fileList = new Request<CampaignFileView[]>();
  /** Bumped when every frame made so far goes stale (another sequence, display or clip): a frame made before is dropped. */
  private generation = 0;
  // Bookkeeping of the pump, not shown: what is on screen is published through `image` and `error`.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly rendered = new Map<number, RenderedImage>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly failed = new Map<number, string>();
  private pumping = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly fits: FitsClient,
  ) {}

  /** The list of files is being fetched (a campaign's), or the frame asked for is being made. */
  get loading(): boolean {
    return this.fileList.loading || this.frameLoading;
  }

  /** Why the list or the frame asked for cannot be shown. */
  get error(): string | null {
    return this.fileList.error?.message ?? this.frameError;
  }

  /** Rendered frames held now (bounded by KEPT_RENDERED_FRAMES). */
  get renderedFrameCount(): number {
    return this.rendered.size;
  }

  /** Plays the given frames (any order: they are put in time order). */
  openFrames(title: string, frames: readonly PlayerFrame[], emptyMessage = NOTHING_DOWNLOADED): void {
    this.reset(title);
    this.start(frames, emptyMessage);
  }

  /** Plays the files of a campaign that are on disk. */
  async openCampaign(name: string): Promise<void> {
    this.reset(`Campaign ${name}`);
    const result = await this.fileList.run(() => this.client.invoke('campaigns:files', { name }));
    if (!result?.ok) return;
    this.start(campaignFrames(result.value), NOTHING_ON_DISK);
  }

  goTo(index: number): void {
    if (this.frames.length === 0) return;
    this.index = Math.min(this.frames.length - 1, Math.max(this.firstIndex, Math.round(index)));
    this.frameError = this.failed.get(this.index) ?? null;
    if (this.rendered.has(this.index)) this.showRendered();
    else {
      this.frameLoading = !this.frameError;
      void this.pump();
    }
  }

  step(delta: number): void {
    this.goTo(this.index + delta);
  }

  play(): void {
    if (this.frames.length - this.firstIndex < 2) return;
    this.playing = true;
    if (this.shownIndex === this.index) this.scheduleTick();
  }

  pause(): void {
    this.playing = false;
    this.stopTimer();
  }

  togglePlay(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  setFps(fps: number): void {
    if (!Number.isFinite(fps)) return;
    this.fps = Math.min(FPS_RANGE.max, Math.max(FPS_RANGE.min, fps));
  }

  /** A new stretch keeps the shared clip; new clip percentiles take it again from the same frame. */
  setDisplay(display: DisplayChoice): void {
    const clipChanged = display.clipPercents[0] !== this.display.clipPercents[0] || display.clipPercents[1] !== this.display.clipPercents[1];
    this.display = display;
    this.invalidate(clipChanged);
  }

  /** A new colour map or overlay choice: applied, and remembered for the sequence's instrument. */
  setView(view: ViewOptions): void {
    if (this.views.choose(view)) this.setDisplay({ ...this.display, colormap: view.colormap });
    void this.outline();
  }

  get view(): ViewOptions {
    return this.views.current;
  }

  /** The overlay of the frame on screen, or null while none is asked for. */
  get overlay(): OverlayAnswer | null {
    return wantsOverlay(this.view) ? this.overlayAnswer : null;
  }

  /** The axes a saved figure of the frame on screen is drawn with, asked for when it is saved with them. */
  async figureAxes(): Promise<AxesAnswer> {
    const frame = this.shownIndex === null ? undefined : this.frames[this.shownIndex];
    if (!frame) return { reason: 'no frame is shown' };
    const answer = await this.fits.frameAxes(frame.jobId);
    return 'missing' in answer ? { reason: 'the frame is no longer held: step to it again' } : answer;
  }

  /** Asks for the lines over the frame on screen; an answer about a frame no longer shown is dropped. */
  private async outline(): Promise<void> {
    const asked = ++this.outlined;
    const frame = this.shownIndex === null ? undefined : this.frames[this.shownIndex];
    if (!frame || !wantsOverlay(this.view)) {
      this.overlayAnswer = null;
      return;
    }
    try {
      const answer = await this.fits.frameOverlay(frame.jobId, overlayRadii(this.view));
      if (asked === this.outlined) this.overlayAnswer = 'missing' in answer ? null : answer;
    } catch {
      if (asked === this.outlined) this.overlayAnswer = null;
    }
  }

  setDifference(on: boolean): void {
    if (on === this.difference) return;
    this.difference = on;
    // Differences span another range of values than the frames themselves: their clip comes from the first difference.
    this.clipFrom = this.firstIndex;
    this.invalidate(true);
  }

  /** Takes the shared clip from the frame on screen. */
  /**
   * Encodes frames `from` to `to` (indices, as shown) as a movie with the player's clip, stretch, colour map and
   * running difference; null when cancelled. The shared clip is taken first, so every frame has the same one.
   */
  async exportMovie(range: { from: number; to: number; fps: number; size?: number }): Promise<ExportedMovie | null> {
    const from = Math.max(this.firstIndex, Math.min(range.from, range.to));
    const to = Math.min(this.frames.length - 1, Math.max(range.from, range.to));
    const abort = new AbortController();
    this.exportAbort = abort;
    this.pause();
    this.exportProgress = { done: 0, total: to - from + 1 };
    try {
      return await exportMovie({
        count: to - from + 1,
        fps: range.fps,
        ...(range.size === undefined ? {} : { size: range.size }),
        render: (index) => this.make(from + index, this.clip),
        label: (index) => {
          const frame = this.frames[from + index];
          const time = frame?.dateObs ? `${frame.dateObs.replace('T', ' ')} UT` : (frame?.name ?? '');
          return this.difference ? `${time} minus the frame before` : time;
        },
        onProgress: (done, total) => (this.exportProgress = { done, total }),
        signal: abort.signal,
      });
    } catch (error) {
      if (abort.signal.aborted) return null;
      throw error;
    } finally {
      this.exportProgress = null;
      if (this.exportAbort === abort) this.exportAbort = null;
    }
  }

  cancelExport(): void {
    this.exportAbort?.abort();
  }

  useThisFrame(): void {
    this.clipFrom = this.index;
    this.invalidate(true);
  }

  close(): void {
    if (!this.isOpen) return;
    this.reset('');
    this.isOpen = false;
  }

  private reset(title: string): void {
    this.pause();
    this.cancelExport();
    this.fileList.reset();
    this.generation += 1;
    this.rendered.clear();
    this.failed.clear();
    void this.fits.dropFrames().catch(() => undefined);
    this.isOpen = true;
    this.title = title;
    this.frames = [];
    this.index = 0;
    this.shownIndex = null;
    this.image = null;
    this.readout.clear();
    this.views.forgetInstrument();
    this.overlayAnswer = null;
    this.clip = null;
    this.clipFrom = 0;
    this.difference = false;
    this.frameLoading = false;
    this.frameError = null;
    this.emptyMessage = null;
  }

  private start(frames: readonly PlayerFrame[], emptyMessage: string): void {
    this.frames = inTimeOrder(frames);
    if (this.frames.length === 0) {
      this.emptyMessage = emptyMessage;
      return;
    }
    this.goTo(0);
  }

  /** Every frame made so far is stale (and, when `clipToo`, the shared clip): make them again. */
  private invalidate(clipToo: boolean): void {
    this.generation += 1;
    this.rendered.clear();
    this.failed.clear();
    if (clipToo) this.clip = null;
    this.goTo(this.index);
  }

  private showRendered(): void {
    const image = this.rendered.get(this.index);
    if (!image) return;
    this.image = image;
    const moved = this.shownIndex !== this.index;
    this.shownIndex = this.index;
    if (moved) {
      this.readout.changed();
      void this.outline();
    }
    this.frameLoading = false;
    this.frameError = null;
    if (this.playing) this.scheduleTick();
    void this.pump();
  }

  private scheduleTick(): void {
    this.stopTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.playing) return;
      // At the end it starts over: a time-lapse loops.
      this.goTo(this.index + 1 < this.frames.length ? this.index + 1 : this.firstIndex);
    }, 1000 / this.fps);
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The next frame to make: the clip's own first, then the one asked for, then those ahead of it; null when done. */
  private nextWanted(): number | null {
    const wanted = [...(this.clip === null ? [this.clipFrom] : []), this.index];
    for (let ahead = 1; ahead <= PREFETCH_FRAMES; ahead += 1) {
      const next = this.index + ahead;
      wanted.push(next < this.frames.length ? next : this.firstIndex + (next - this.frames.length));
    }
    return wanted.find((index) => index >= this.firstIndex && index < this.frames.length && !this.rendered.has(index) && !this.failed.has(index)) ?? null;
  }

  /** Makes wanted frames one after another until none is missing; a change of settings mid-way is noticed at each step. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let next = this.nextWanted(); next !== null; next = this.nextWanted()) {
        const generation = this.generation;
        const clip = this.clip;
        try {
          const image = await this.make(next, clip);
          if (generation !== this.generation) continue;
          // The first frame made without a clip sets the clip every later frame shares.
          if (clip === null) this.clip = image.clip;
          this.remember(next, image);
          if (next === this.index) this.showRendered();
        } catch (error) {
          if (generation !== this.generation) continue;
          // A frame that failed is not tried again until the settings change; the player does not stop on it unless shown.
          this.failed.set(next, messageOf(error));
          if (next === this.index) {
            this.frameError = messageOf(error);
            this.frameLoading = false;
            this.pause();
          }
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  private async make(index: number, clip: ClipRange | null): Promise<RenderedImage> {
    const frame = this.frames[index];
    if (!frame) throw new Error(`there is no frame ${index + 1}`);
    const previous = this.difference ? (this.frames[index - 1] ?? null) : null;
    const render = () => this.fits.renderFrame(frame.jobId, previous?.jobId ?? null, this.display, clip);
    let result = await render();
    if ('missing' in result) {
      for (const key of result.missing) await this.load(key);
      result = await render();
      if ('missing' in result) throw new Error('the frames could not be kept in memory together');
    }
    return result;
  }

  /** Reads a file and hands it to the worker, which keeps it decoded. */
  private async load(jobId: number): Promise<void> {
    const read = await this.client.invoke('files:read', { id: jobId });
    if (!read.ok) throw new Error(read.error.message);
    const loaded = await this.fits.loadFrame(jobId, read.value.bytes, read.value.name);
    if (!this.views.known) this.useViewOf(viewKey(loaded.instrument));
    const position = this.frames.findIndex((frame) => frame.jobId === jobId);
    const frame = this.frames[position];
    if (frame && frame.dateObs === null && loaded.dateObs !== null) {
      this.frames = this.frames.with(position, { ...frame, dateObs: loaded.dateObs });
    }
  }

  /** The first frame read names the instrument: its remembered view applies (a new colour map redraws). */
  private useViewOf(instrument: string): void {
    if (this.views.useInstrument(instrument)) {
      this.display = { ...this.display, colormap: this.view.colormap };
      this.invalidate(false);
    }
    void this.outline();
  }

  /** Keeps a rendered frame, dropping those farthest behind or ahead of the one asked for. */
  private remember(index: number, image: RenderedImage): void {
    this.rendered.set(index, image);
    while (this.rendered.size > KEPT_RENDERED_FRAMES) {
      let farthest = index;
      let distance = -1;
      for (const kept of this.rendered.keys()) {
        const ahead = (kept - this.index + this.frames.length) % this.frames.length;
        // Frames just behind are worth less than those ahead: playing moves forward.
        const cost = ahead <= PREFETCH_FRAMES ? ahead : this.frames.length - ahead + PREFETCH_FRAMES;
        if (cost > distance) {
          distance = cost;
          farthest = kept;
        }
      }
      this.rendered.delete(farthest);
    }
  }
}

/** Frames in time order: by date-obs, then by name (names of MLSO files begin with the date and time too). */
function inTimeOrder(frames: readonly PlayerFrame[]): PlayerFrame[] {
  return [...frames].sort((a, b) => (a.dateObs ?? '').localeCompare(b.dateObs ?? '') || a.name.localeCompare(b.name));
}

/** The campaign's files that are on disk. */
function campaignFrames(files: readonly CampaignFileView[]): PlayerFrame[] {
  return files.flatMap((file) => (file.state === 'done' && file.jobId !== null ? [{ jobId: file.jobId, name: file.filename, dateObs: file.dateObs }] : []));
}
