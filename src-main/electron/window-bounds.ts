// Remembering where the window was: its normal (unmaximised) bounds and whether it was maximised,
// saved a moment after it stops moving or resizing, and restored only while that spot is still on a
// connected display (a laptop undocked from its second monitor must not open the window off-screen).
import type { BrowserWindow, Rectangle } from 'electron';
import type { WindowBounds } from '../../src-shared/settings/settings-types';

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const;
export const MINIMUM_WINDOW_SIZE = { width: 800, height: 560 } as const;

/** How much of the window must lie on one display for the saved place to count as visible. */
const VISIBLE_MARGIN = { width: 120, height: 60 } as const;

const BOUNDS_SAVE_DELAY_MS = 500;

export function isOnVisibleDisplay(bounds: WindowBounds, workAreas: Rectangle[]): boolean {
  return workAreas.some((area) => {
    const width = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const height = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return width >= VISIBLE_MARGIN.width && height >= VISIBLE_MARGIN.height;
  });
}

/** The saved bounds to open the window with, or null to let it open centred at the default size. */
export function boundsToRestore(saved: WindowBounds | null | undefined, workAreas: Rectangle[]): WindowBounds | null {
  if (!saved || ![saved.x, saved.y, saved.width, saved.height].every(Number.isFinite)) return null;
  const bounds: WindowBounds = {
    x: Math.round(saved.x),
    y: Math.round(saved.y),
    width: Math.max(MINIMUM_WINDOW_SIZE.width, Math.round(saved.width)),
    height: Math.max(MINIMUM_WINDOW_SIZE.height, Math.round(saved.height)),
    maximized: saved.maximized === true,
  };
  return isOnVisibleDisplay(bounds, workAreas) ? bounds : null;
}

function currentBounds(window: BrowserWindow): WindowBounds {
  const { x, y, width, height } = window.getNormalBounds();
  return { x, y, width, height, maximized: window.isMaximized() };
}

export interface BoundsTracker {
  /** Saves now if a change is waiting (on close, before quitting). */
  flush(): void;
  /** Stops listening and drops any waiting change. */
  dispose(): void;
}

/** Calls `save` once the window has been still for `delayMs` after a move, resize or (un)maximise. */
export function trackWindowBounds(window: BrowserWindow, save: (bounds: WindowBounds) => void, delayMs = BOUNDS_SAVE_DELAY_MS): BoundsTracker {
  let timer: NodeJS.Timeout | undefined;
  const saveNow = () => {
    timer = undefined;
    if (!window.isDestroyed()) save(currentBounds(window));
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(saveNow, delayMs);
  };
  const events = ['move', 'resize', 'maximize', 'unmaximize'] as const;
  for (const event of events) window.on(event as 'move', schedule);
  return {
    flush() {
      if (timer === undefined) return;
      clearTimeout(timer);
      saveNow();
    },
    dispose() {
      clearTimeout(timer);
      timer = undefined;
      if (!window.isDestroyed()) for (const event of events) window.off(event as 'move', schedule);
    },
  };
}
