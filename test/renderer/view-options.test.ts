import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, instrumentKey, loadView, overlayRadii, parseCircles, saveView } from '../../src-renderer/quicklook/view-options';
import { RememberedView } from '../../src-renderer/quicklook/remembered-view.svelte';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('view options', () => {
  it('reads circles as solar radii: sorted, each once, above 0 and up to 30, at most 8', () => {
    expect(parseCircles('3, 1.5;2  2')).toEqual([1.5, 2, 3]);
    expect(parseCircles('')).toEqual([]);
    expect(parseCircles('0')).toHaveProperty('problem');
    expect(parseCircles('31')).toHaveProperty('problem');
    expect(parseCircles('two')).toHaveProperty('problem');
    expect(parseCircles('1 2 3 4 5 6 7 8 9')).toEqual({ problem: 'At most 8 circles.' });
  });

  it('draws the limb first, then the circles', () => {
    expect(overlayRadii({ ...DEFAULT_VIEW, limb: true, circles: [2, 3] })).toEqual([1, 2, 3]);
    expect(overlayRadii({ ...DEFAULT_VIEW, circles: [2] })).toEqual([2]);
  });

  it('remembers a view per instrument, and reads anything else in storage as the default', () => {
    const storage = memoryStorage();
    const view = { colormap: 'soholasco2' as const, limb: true, north: true, circles: [1.5], colorBar: true };
    saveView('ucomp', view, storage);
    expect(loadView('ucomp', storage)).toEqual(view);
    expect(loadView('cosmo k-coronagraph', storage)).toEqual(DEFAULT_VIEW);
    storage.items.set('mlso.view.bad', '{"colormap":"jet","limb":"yes","circles":[0,2,"x"]}');
    expect(loadView('bad', storage)).toEqual(DEFAULT_VIEW);
    storage.items.set('mlso.view.worse', 'not json');
    expect(loadView('worse', storage)).toEqual(DEFAULT_VIEW);
  });

  it('keys an instrument by INSTRUME, else TELESCOP, else "other"', () => {
    expect(
      instrumentKey([
        { keyword: 'TELESCOP', value: 'X' },
        { keyword: 'INSTRUME', value: 'UCoMP ' },
      ]),
    ).toBe('ucomp');
    expect(instrumentKey([{ keyword: 'TELESCOP', value: 'COSMO K-Coronagraph' }])).toBe('cosmo k-coronagraph');
    expect(instrumentKey([])).toBe('other');
  });
});

describe('the remembered view (one keeper for the quick-look and the player)', () => {
  it("takes an instrument's remembered view, remembers a new choice for it, and says when the colour map changed", () => {
    localStorage.clear();
    saveView('cosmo k-coronagraph', { ...DEFAULT_VIEW, colormap: 'soholasco2', limb: true });
    const view = new RememberedView();
    expect(view.current).toEqual(DEFAULT_VIEW);
    // No instrument yet: a choice applies but is remembered for none.
    expect(view.choose({ ...DEFAULT_VIEW, north: true })).toBe(false);
    expect([view.current.north, view.known, localStorage.length]).toEqual([true, false, 1]);
    expect(view.useInstrument('cosmo k-coronagraph')).toBe(true);
    expect(view.current).toMatchObject({ colormap: 'soholasco2', limb: true, north: false });
    expect(view.choose({ ...view.current, circles: [2] })).toBe(false);
    expect(loadView('cosmo k-coronagraph').circles).toEqual([2]);
    expect(view.choose({ ...view.current, colormap: 'viridis' })).toBe(true);
    expect(view.useInstrument('ucomp')).toBe(true);
    expect(view.current).toEqual(DEFAULT_VIEW);
    view.forgetInstrument();
    expect(view.known).toBe(false);
    localStorage.clear();
  });
});
