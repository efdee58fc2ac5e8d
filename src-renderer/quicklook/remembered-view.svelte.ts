// The colour map and overlays of the image on screen, remembered per instrument (view-options.ts): one keeper for
// the quick-look (whose file's header names the instrument) and the player (whose first frame read names it).
import { DEFAULT_VIEW, loadView, saveView, type ViewOptions } from './view-options';

export class RememberedView {
  current = $state.raw<ViewOptions>(DEFAULT_VIEW);
  /** Whose remembered view is used and saved; null until an image names its instrument. */
  private instrument: string | null = null;

  /** Whether an instrument is known (a choice made before is applied but remembered for none). */
  get known(): boolean {
    return this.instrument !== null;
  }

  /** The view remembered for `instrument` becomes the current one. True when the colour map changed (a redraw). */
  useInstrument(instrument: string): boolean {
    this.instrument = instrument;
    return this.apply(loadView(instrument));
  }

  /** A new choice: applied, and remembered for the instrument once one is known. True when the colour map changed. */
  choose(view: ViewOptions): boolean {
    if (this.instrument !== null) saveView(this.instrument, view);
    return this.apply(view);
  }

  /** Another sequence: the next image read names the instrument again (the view on screen stays until then). */
  forgetInstrument(): void {
    this.instrument = null;
  }

  private apply(view: ViewOptions): boolean {
    const colormapChanged = view.colormap !== this.current.colormap;
    this.current = view;
    return colormapChanged;
  }
}
