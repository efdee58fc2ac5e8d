// The quick-look of one downloaded file: its bytes fetched through files:read, opened by the FITS worker, the
// chosen HDU drawn with the chosen stretch and clip, and its header searchable. The worker keeps the decoded image,
// so a new stretch or clip is only re-rendered. The newest request wins: a reply to an older one is dropped.
import type { ApiClient } from '../lib/api';
import { FitsViewerError, type FitsClient } from '../lib/fits-worker-client';
import type { DisplayChoice, HduSummary, HeaderCard, OpenedFile, RenderedImage } from '../workers/fits-protocol';
import { DEFAULT_DISPLAY } from './quicklook-display';

export class QuickLookStore {
  isOpen = $state(false);
  /** The file's name on disk (as the list shows it until the file has been read). */
  fileName = $state('');
  opened = $state.raw<OpenedFile | null>(null);
  hdu = $state<number | null>(null);
  /** Kept from one file to the next: whoever picked log for one file likely wants it for the next. */
  display = $state.raw<DisplayChoice>(DEFAULT_DISPLAY);
  image = $state.raw<RenderedImage | null>(null);
  loading = $state(false);
  /** Why nothing can be shown: the reader's one-line message, or why the file could not be read. */
  error = $state<string | null>(null);
  headerFilter = $state('');

  currentHdu: HduSummary | null = $derived(this.opened?.hdus.find((hdu) => hdu.index === this.hdu) ?? null);
  visibleCards: HeaderCard[] = $derived(filterCards(this.currentHdu?.cards ?? [], this.headerFilter));

  private request = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly fits: FitsClient,
  ) {}

  /** Opens the dialog on a finished download and draws its first image. */
  async show(jobId: number, fileName: string): Promise<void> {
    this.forgetFile();
    const token = ++this.request;
    this.isOpen = true;
    this.fileName = fileName;
    this.headerFilter = '';
    this.loading = true;
    const read = await this.client.invoke('files:read', { id: jobId });
    if (token !== this.request) return;
    if (!read.ok) {
      this.fail(token, read.error.message);
      return;
    }
    this.fileName = read.value.name;
    try {
      const opened = await this.fits.open(read.value.bytes, read.value.name);
      if (token !== this.request) {
        void this.fits.close(opened.document).catch(() => undefined);
        return;
      }
      this.opened = opened;
      this.hdu = opened.imageHdu ?? 0;
      await this.draw(token);
    } catch (error) {
      this.fail(token, messageOf(error));
    }
  }

  selectHdu(index: number): void {
    if (!this.opened || index === this.hdu) return;
    this.hdu = index;
    void this.draw(++this.request);
  }

  setDisplay(display: DisplayChoice): void {
    this.display = display;
    if (this.opened) void this.draw(++this.request);
  }

  close(): void {
    if (!this.isOpen) return;
    this.request += 1;
    this.isOpen = false;
    this.forgetFile();
  }

  /** Renders the current HDU; an HDU without an image shows its header only. */
  private async draw(token: number): Promise<void> {
    const opened = this.opened;
    const hdu = this.currentHdu;
    this.error = null;
    if (!opened || !hdu?.isImage) {
      this.image = null;
      this.loading = false;
      return;
    }
    this.loading = true;
    try {
      const image = await this.fits.render(opened.document, hdu.index, this.display);
      if (token !== this.request) return;
      this.image = image;
      this.loading = false;
    } catch (error) {
      this.fail(token, messageOf(error));
    }
  }

  private fail(token: number, message: string): void {
    if (token !== this.request) return;
    this.error = message;
    this.image = null;
    this.loading = false;
  }

  private forgetFile(): void {
    if (this.opened) void this.fits.close(this.opened.document).catch(() => undefined);
    this.opened = null;
    this.hdu = null;
    this.image = null;
    this.error = null;
    this.loading = false;
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
