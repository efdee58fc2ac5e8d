// "Use demo server": the bundled emulator on a free local port, with its default catalogue.
import type { DemoServerStarter } from '../core/app/app-ports';
import { createEmulator } from '../emulator';

export const startDemoServer: DemoServerStarter = async () => {
  const emulator = await createEmulator({ port: 0 });
  return { url: emulator.url, close: () => emulator.close() };
};
