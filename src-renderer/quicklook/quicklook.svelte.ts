// The quick-look of one downloaded file: its bytes fetched through files:read, opened by the FITS worker, the
// chosen HDU drawn with the chosen stretch and clip, and its header searchable. The worker keeps the decoded image,
// so a new stretch or clip is only re-rendered. The newest request wins: a reply to an older one is dropped.
import type { Result } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { FitsViewerError, type FitsClient } from './fits-worker-client';
import { Request } from '../lib/request.svelte';
import type { AxesAnswer, DisplayChoice, HduSummary, HeaderCard, OpenedFile, OverlayAnswer, RenderedImage } from './workers/fits-protocol';
import { instrumentKey, overlayRadii, wantsOverlay, type ViewOptions } from './view-options';
import { RememberedView } from './remembered-view.svelte';
import { PixelReadout } from './pixel-readout.svelte';
import { DEFAULT_DISPLAY } from './quicklook-display';

/** What a look given up before its file was read answers: it is dropped, never shown. */
const GIVEN_UP: Result<never> = { ok: false, error: { kind: 'cancelled', message: 'The quick look was closed before the file was read.' } };

export class QuickLookStore {
  isOpen = $state(false);
  /** The file's name on disk (as the list shows it until the file has been read). */
  fileName = $state('');
  hdu = $state<number | null>(null);
  /** Kept from one file to the next: whoever picked log for one file likely wants it for the next. */
  display = $state.raw<DisplayChoice>(DEFAULT_DISPLAY);
  headerFilter = $state('');
  /** Colour map and overlays, remembered for the instrument the file's header names. */
  private readonly views = new RememberedView();

  currentHdu: HduSummary | null = $derived(this.opened?.hdus.find((hdu) => hdu.index === this.hdu) ?? null);
  visibleCards: HeaderCard[] = $derived(filterCards(this.currentHdu?.cards ?? [], this.headerFilter));

  /** The pixel under the pointer: value, unit and where it is, read by the worker from the image shown. */
  readonly readout = new PixelReadout(async (pixel) => {
    const opened = this.opened;
    const hdu = this.currentHdu;
    if (!opened || !hdu?.isImage) return null;
    return this.fits.pixel(opened.document, hdu.index, pixel.x, pixel.y);
  });

  /** Reading the file and opening it in the worker; a file opened for a look given up meanwhile is closed again. */
  private readonly opening: Request<OpenedFile>;
  /** Drawing the chosen HDU: another HDU or display asked for meanwhile supersedes it. */
  private readonly drawing = new Request<RenderedImage>();
  /** The lines over the image (limb, circles, north), asked for only while some are shown. */
  private readonly outlining = new Request<OverlayAnswer>();

  constructor(
    private readonly client: ApiClient,
    private readonly fits: FitsClient,
  ) {
    this.opening = new Request<OpenedFile>({ discard: (opened) => void this.fits.close(opened.document).catch(() => undefined) });
  }

  get opened(): OpenedFile | null {
    return this.opening.value;
  }

  get image(): RenderedImage | null {
    return this.drawing.value;
  }

  get view(): ViewOptions {
    return this.views.current;
  }

  /** The overlay of the HDU shown, or why it has none; null while no overlay is asked for. */
  get overlay(): OverlayAnswer | null {
    return wantsOverlay(this.view) ? this.outlining.value : null;
  }

  get loading(): boolean {
    return this.opening.loading || this.drawing.loading;
  }

  /** Why nothing can be shown: the reader's one-line message, or why the file could not be read. */
  get error(): string | null {
    return (this.opening.error ?? this.drawing.error)?.message ?? null;
  }

  /** The axes a saved figure of the HDU shown is drawn with, asked for when it is saved with them. */
  async figureAxes(): Promise<AxesAnswer> {
    const opened = this.opened;
    const hdu = this.currentHdu;
    if (!opened || !hdu?.isImage) return { reason: 'no image is shown' };
    return this.fits.axes(opened.document, hdu.index);
  }

  /** Opens the dialog on a finished download and draws its first image. */
  async show(jobId: number, fileName: string): Promise<void> {
    this.forgetFile();
    this.isOpen = true;
    this.fileName = fileName;
    this.headerFilter = '';
    const opened = await this.opening.run(async (stillWanted) => {
      const read = await this.client.invoke('files:read', { id: jobId });
      if (!read.ok) return read;
      // A look given up meanwhile opens nothing: the worker has the next file to open.
      if (!stillWanted()) return GIVEN_UP;
      this.fileName = read.value.name;
      return attempt(() => this.fits.open(read.value.bytes, read.value.name));
    });
    if (!opened?.ok) return;
    this.hdu = opened.value.imageHdu ?? 0;
    this.views.useInstrument(instrumentKey(opened.value.hdus[0]?.cards ?? []));
    this.display = { ...this.display, colormap: this.view.colormap };
    await Promise.all([this.draw(), this.outline()]);
  }

  /** A new colour map or overlay choice: applied, and remembered for this instrument. */
  setView(view: ViewOptions): void {
    if (this.views.choose(view)) this.setDisplay({ ...this.display, colormap: view.colormap });
    void this.outline();
  }

  selectHdu(index: number): void {
    if (!this.opened || index === this.hdu) return;
    this.hdu = index;
    this.readout.changed();
    void this.draw();
    void this.outline();
  }

  setDisplay(display: DisplayChoice): void {
    this.display = display;
    if (this.opened) void this.draw();
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.forgetFile();
  }

  /** Renders the current HDU; an HDU without an image shows its header only. */
  private async draw(): Promise<void> {
    const opened = this.opened;
    const hdu = this.currentHdu;
    if (!opened || !hdu?.isImage) {
      this.drawing.reset();
      return;
    }
    await this.drawing.run(() => attempt(() => this.fits.render(opened.document, hdu.index, this.display)));
  }

  /** Asks for the overlay of the current HDU when one is shown. */
  private async outline(): Promise<void> {
    const opened = this.opened;
    const hdu = this.currentHdu;
    if (!opened || !hdu?.isImage || !wantsOverlay(this.view)) {
      this.outlining.reset();
      return;
    }
    const radii = overlayRadii(this.view);
    await this.outlining.run(() => attempt(() => this.fits.overlay(opened.document, hdu.index, radii)));
  }

  /** Closes the file in the worker and drops every answer still to come for it. */
  private forgetFile(): void {
    const opened = this.opened;
    if (opened) void this.fits.close(opened.document).catch(() => undefined);
    this.opening.reset();
    this.drawing.reset();
    this.outlining.reset();
    this.hdu = null;
    this.readout.clear();
  }
}

/** A call to the FITS worker as a Result, its failure in the viewer's words. */
async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const failure: ErrorData = { kind: error instanceof FitsViewerError && error.kind === 'fits' ? 'download' : 'internal', message: messageOf(error) };
    return { ok: false, error: failure };
  }
}

/** Cards whose keyword, value or comment contains the text (any case); all of them for an empty filter. */
function filterCards(cards: readonly HeaderCard[], filter: string): HeaderCard[] {
  const wanted = filter.trim().toLowerCase();
  if (wanted === '') return [...cards];
  return cards.filter((card) => `${card.keyword}\n${card.value}\n${card.comment}`.toLowerCase().includes(wanted));
}

export function messageOf(error: unknown): string {
  if (error instanceof FitsViewerError) return error.message;
  return `The image could not be shown: ${error instanceof Error ? error.message : String(error)}`;
}
