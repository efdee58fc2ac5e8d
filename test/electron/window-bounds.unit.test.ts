// Remembering the window's place: restored only on a visible display, saved once it stops moving.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { boundsToRestore, isOnVisibleDisplay, trackWindowBounds } from '../../src-main/electron/window-bounds';
import { FakeBrowserWindow } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

const laptop = { x: 0, y: 0, width: 1440, height: 870 };
const monitorOnTheRight = { x: 1440, y: 0, width: 2560, height: 1400 };

describe('restoring the window', () => {
  it('uses the saved place when it is on a connected display', () => {
    const saved = { x: 1600, y: 100, width: 1200, height: 800, maximized: false };
    expect(boundsToRestore(saved, [laptop, monitorOnTheRight])).toEqual(saved);
  });

  it('falls back to the default when that display is gone', () => {
    expect(boundsToRestore({ x: 1600, y: 100, width: 1200, height: 800, maximized: true }, [laptop])).toBeNull();
  });

  it('needs a usable part of the window on screen, not a sliver', () => {
    expect(isOnVisibleDisplay({ x: 1400, y: 10, width: 900, height: 600, maximized: false }, [laptop])).toBe(false);
    expect(isOnVisibleDisplay({ x: -700, y: 10, width: 900, height: 600, maximized: false }, [laptop])).toBe(true);
  });

  it('ignores nothing saved or nonsense, and never goes below the minimum size', () => {
    expect(boundsToRestore(null, [laptop])).toBeNull();
    expect(boundsToRestore({ x: Number.NaN, y: 0, width: 900, height: 600, maximized: false }, [laptop])).toBeNull();
    expect(boundsToRestore({ x: 10, y: 10, width: 300, height: 200, maximized: false }, [laptop])).toMatchObject({ width: 800, height: 560 });
  });
});

describe('saving the window place', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function tracked() {
    const window = new FakeBrowserWindow({ x: 5, y: 6, width: 1000, height: 700 });
    const save = vi.fn();
    const tracker = trackWindowBounds(window as unknown as BrowserWindow, save, 500);
    return { window, save, tracker };
  }

  it('saves once, shortly after the moves and resizes stop', () => {
    const { window, save } = tracked();
    window.emit('move');
    window.bounds.x = 50;
    window.emit('resize');
    vi.advanceTimersByTime(400);
    window.emit('move');
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(save).toHaveBeenCalledExactlyOnceWith({ x: 50, y: 6, width: 1000, height: 700, maximized: false });
  });

  it('saves a waiting change at once on flush (closing), and nothing when none waits', () => {
    const { window, save, tracker } = tracked();
    tracker.flush();
    expect(save).not.toHaveBeenCalled();
    window.maximized = true;
    window.emit('maximize');
    tracker.flush();
    expect(save).toHaveBeenCalledExactlyOnceWith({ x: 5, y: 6, width: 1000, height: 700, maximized: true });
    vi.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledOnce();
  });

  it('stops after dispose', () => {
    const { window, save, tracker } = tracked();
    window.emit('move');
    tracker.dispose();
    window.emit('resize');
    vi.advanceTimersByTime(1000);
    expect(save).not.toHaveBeenCalled();
  });
});
