// The finish notices and dock state as the platform shows them, with Electron mocked: a notification only while the
// window is not in front and the Settings switch is on, a click brings the window back, and the taskbar's bar and
// badge follow the run.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { desktopAttention } from '../../src-main/electron/desktop-attention';
import { fake, FakeBrowserWindow, FakeNotification, resetFakeElectron } from './fake-electron';

vi.mock('electron', async () => (await import('./fake-electron')).fakeElectron);

const NOTICE = { title: 'Downloads finished with failures', body: '1 failed, 11 of 12 files done', problem: true };

let window: FakeBrowserWindow;
let switchOn: boolean;
let shownWindow: number;

function attention() {
  return desktopAttention({
    currentWindow: () => window as never,
    notificationsOn: () => switchOn,
    showWindow: () => void (shownWindow += 1),
  });
}

beforeEach(() => {
  resetFakeElectron();
  window = new FakeBrowserWindow({});
  switchOn = true;
  shownWindow = 0;
});

describe('what the desktop shows when work ends', () => {
  it('notifies while the window is not in front, and a click brings it back', () => {
    attention().notify(NOTICE);
    expect(FakeNotification.shown.map((n) => n.options)).toEqual([{ title: NOTICE.title, body: NOTICE.body, urgency: 'critical' }]);
    FakeNotification.shown[0]!.emit('click');
    expect(shownWindow).toBe(1);
  });

  it('stays quiet while the window is in front, or when Settings turned notices off', () => {
    window.focused = true;
    attention().notify(NOTICE);
    window.focused = false;
    switchOn = false;
    attention().notify(NOTICE);
    expect(FakeNotification.shown).toEqual([]);
  });

  it("shows the run's share on the taskbar, removes the bar once it ends, and badges the failed files", () => {
    const shown = attention();
    shown.showDock({ fraction: 0.25, paused: false, failed: 0 });
    shown.showDock({ fraction: 0.5, paused: true, failed: 1 });
    shown.showDock({ fraction: null, paused: false, failed: 1 });
    expect(window.progressBars).toEqual([
      [0.25, { mode: 'normal' }],
      [0.5, { mode: 'paused' }],
      [-1, { mode: 'none' }],
    ]);
    expect(fake.app.setBadgeCount.mock.calls.map(([count]) => count)).toEqual([0, 1, 1]);
  });
});
