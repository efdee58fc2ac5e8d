// "Use demo server": the bundled emulator on a free loopback port with its default catalogue. The one starter
// of every front end (the desktop app, web mode and with it `mlso-dl web --demo`); each hands it to the core as
// its DemoServerStarter. It lives here, not in the core, because the core never loads the emulator (lint holds that).
import { createEmulator } from './create-emulator';
import type { RunningEmulator } from './running-emulator';
import type { EmulatorOptions } from './options';

/** Knobs a caller may turn (tests: smaller images). Where it listens is not one of them. */
export type DemoServerOptions = Partial<Omit<EmulatorOptions, 'host' | 'port'>>;

export function startDemoServer(options: DemoServerOptions = {}): Promise<RunningEmulator> {
  // Loopback only: the demo is for this computer. Port 0: the system picks a free one, so two apps never collide.
  return createEmulator({ ...options, host: '127.0.0.1', port: 0 });
}
