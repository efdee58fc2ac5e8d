// Web mode's notices through the browser's Notification API: the desktop's wording, only once the browser allowed
// them, only while the page is not in front and the Settings switch is on; the desktop app's page shows none itself.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showWebNotices } from '../../src-renderer/lib/web-notices';
import { FakeContract, makeJob, overallOf } from './fake-contract';

class StubNotification {
  static permission: NotificationPermission = 'granted';
  static shown: { title: string; body: string | undefined }[] = [];
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    StubNotification.shown.push({ title, body: options?.body });
  }
}

const ENDED = overallOf([makeJob(1, 'a.fts', 'done'), makeJob(2, 'b.fts', 'failed')]);

function webClient(fake: FakeContract, transport: 'websocket' | 'bridge' = 'websocket') {
  return { transport, on: fake.on.bind(fake) } as unknown as Parameters<typeof showWebNotices>[0];
}

let focused: boolean;
beforeEach(() => {
  StubNotification.permission = 'granted';
  StubNotification.shown = [];
  focused = false;
  vi.stubGlobal('Notification', StubNotification);
  vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('notices in web mode', () => {
  it("says a run's end, failures first, while the page is not in front", () => {
    const fake = new FakeContract();
    showWebNotices(webClient(fake), () => true);
    fake.emit('downloads:progress', { jobs: [], overall: ENDED });
    expect(StubNotification.shown).toEqual([{ title: 'Downloads finished with failures', body: '1 failed, 1 of 2 files done' }]);
  });

  it('says nothing while the page is in front, without the browser’s permission, with the switch off, or in the desktop app', () => {
    const cases: [boolean, NotificationPermission, boolean, 'websocket' | 'bridge'][] = [
      [true, 'granted', true, 'websocket'],
      [false, 'default', true, 'websocket'],
      [false, 'granted', false, 'websocket'],
      [false, 'granted', true, 'bridge'],
    ];
    for (const [inFront, permission, switchOn, transport] of cases) {
      const fake = new FakeContract();
      focused = inFront;
      StubNotification.permission = permission;
      showWebNotices(webClient(fake, transport), () => switchOn);
      fake.emit('downloads:progress', { jobs: [], overall: ENDED });
    }
    expect(StubNotification.shown).toEqual([]);
  });
});
