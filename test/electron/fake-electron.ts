// A stand-in for the 'electron' module, enough for the main process and preload code to run under
// vitest (Electron's binary is not available to the tests). Each test file mocks 'electron' with
// `fakeElectron` and calls `resetFakeElectron()` before each test.
import { EventEmitter } from 'node:events';
import type { IpcMain, SafeStorage } from 'electron';
import { vi } from 'vitest';

type Listener = (...args: unknown[]) => unknown;

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  sent: { channel: string; payload: unknown }[] = [];
  destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  isDestroyed() {
    return this.destroyed;
  }
  /** Emits will-navigate like Electron does and tells whether the navigation was prevented. */
  navigate(url: string): boolean {
    return this.emitPreventable('will-navigate', url);
  }
  /** Emits will-redirect (a navigation under way being sent elsewhere) and tells whether it was prevented. */
  redirect(url: string): boolean {
    return this.emitPreventable('will-redirect', url);
  }
  private emitPreventable(name: string, url: string): boolean {
    let prevented = false;
    this.emit(name, { url, preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loadedFile: string | undefined;
  maximized = false;
  destroyed = false;
  focused = false;
  /** Every setProgressBar call, as [value, options]. */
  progressBars: [number, unknown][] = [];
  bounds: { x: number; y: number; width: number; height: number };
  constructor(readonly options: Record<string, unknown>) {
    super();
    this.bounds = {
      x: (options.x as number | undefined) ?? 100,
      y: (options.y as number | undefined) ?? 100,
      width: (options.width as number | undefined) ?? 800,
      height: (options.height as number | undefined) ?? 600,
    };
    FakeBrowserWindow.instances.push(this);
  }
  loadFile(file: string) {
    this.loadedFile = file;
    return Promise.resolve();
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isMinimized() {
    return false;
  }
  isFocused() {
    return this.focused;
  }
  setProgressBar(value: number, options?: unknown) {
    this.progressBars.push([value, options]);
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  isDestroyed() {
    return this.destroyed;
  }
  show() {}
  focus() {}
  restore() {}
  /** Emits 'close' like Electron does and tells whether closing was prevented. */
  tryClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    return prevented;
  }
}

/** Notifications shown, in order, each with its options; a test clicks one by emitting 'click'. */
export class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static supported = true;
  static isSupported() {
    return FakeNotification.supported;
  }
  constructor(readonly options: { title: string; body: string; urgency?: string }) {
    super();
  }
  show() {
    FakeNotification.shown.push(this);
  }
}

class FakeApp extends EventEmitter {
  paths = new Map<string, string>();
  badgeCount = 0;
  readonly setBadgeCount = vi.fn((count: number) => {
    this.badgeCount = count;
    return true;
  });
  readonly setAsDefaultProtocolClient = vi.fn((_scheme: string, ..._rest: unknown[]) => true);
  readonly quit = vi.fn();
  readonly exit = vi.fn();
  readonly requestSingleInstanceLock = vi.fn(() => true);
  whenReady() {
    return Promise.resolve();
  }
  getPath(name: string): string {
    const value = this.paths.get(name);
    if (!value) throw new Error(`no path for ${name}`);
    return value;
  }
  setPath(name: string, value: string) {
    this.paths.set(name, value);
  }
  getVersion() {
    return '0.0.0-test';
  }
}

type InvokeHandler = Parameters<IpcMain['handle']>[1];

class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();
  handle(channel: string, handler: InvokeHandler) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  on() {}
}

function createState() {
  return {
    app: new FakeApp(),
    ipcMain: new FakeIpcMain(),
    powerMonitor: new EventEmitter(),
    shell: {
      openExternal: vi.fn(async (_url: string) => undefined),
      openPath: vi.fn(async (_path: string) => ''),
      showItemInFolder: vi.fn((_path: string) => undefined),
    },
    dialog: {
      showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePaths: [] as string[] })),
      showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: 1, checkboxChecked: false })),
      showErrorBox: vi.fn(),
    },
    /** The session's answer for an address's proxy (PAC form): "DIRECT" unless a test says otherwise. */
    resolveProxy: vi.fn(async (_url: string) => 'DIRECT'),
    headersListener: undefined as Listener | undefined,
    permissionRequestHandler: undefined as Listener | undefined,
    safeStorage: {
      isAsyncEncryptionAvailable: vi.fn(async () => true),
      getSelectedStorageBackend: vi.fn((): ReturnType<SafeStorage['getSelectedStorageBackend']> => 'gnome_libsecret'),
      encryptStringAsync: vi.fn(async (text: string) => Buffer.from(`sealed:${Buffer.from(text).toString('hex')}`)),
      decryptStringAsync: vi.fn(async (sealed: Buffer) => ({
        result: Buffer.from(sealed.toString().replace(/^sealed:/, ''), 'hex').toString(),
        shouldReEncrypt: false,
      })),
    },
    displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    exposed: new Map<string, unknown>(),
    ipcRenderer: {
      invoke: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: null })),
      on: vi.fn(),
      removeListener: vi.fn(),
    },
  };
}

export let fake = createState();

export function resetFakeElectron(): void {
  fake = createState();
  FakeBrowserWindow.instances = [];
  FakeNotification.shown = [];
  FakeNotification.supported = true;
}

// Getters, so a module that imported 'electron' once still sees the state of the current test.
export const fakeElectron = {
  get app() {
    return fake.app;
  },
  get ipcMain() {
    return fake.ipcMain;
  },
  get powerMonitor() {
    return fake.powerMonitor;
  },
  get shell() {
    return fake.shell;
  },
  get dialog() {
    return fake.dialog;
  },
  get safeStorage() {
    return fake.safeStorage;
  },
  get ipcRenderer() {
    return fake.ipcRenderer;
  },
  BrowserWindow: FakeBrowserWindow,
  Notification: FakeNotification,
  screen: {
    getAllDisplays: () => fake.displays,
  },
  session: {
    get defaultSession() {
      return {
        webRequest: {
          onHeadersReceived: (listener: Listener) => {
            fake.headersListener = listener;
          },
        },
        setPermissionRequestHandler: (handler: Listener) => {
          fake.permissionRequestHandler = handler;
        },
        setPermissionCheckHandler: () => undefined,
        resolveProxy: (url: string) => fake.resolveProxy(url),
      };
    },
  },
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => {
      fake.exposed.set(key, api);
    },
  },
};
