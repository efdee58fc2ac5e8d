// The Electron main process entry (built to dist/electron/main.js). Settles the profile folder and the
// single-instance lock before anything else, then starts the app; a failure to start is shown, not swallowed.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog } from 'electron';
import { appLocations, userDataOverride } from './app-locations';
import { runDesktopApp } from './desktop-app';

const userData = userDataOverride(process.env);
// Must happen before the app is ready (and before the lock, which is per profile folder).
if (userData) app.setPath('userData', userData);

if (!app.requestSingleInstanceLock()) {
  // Another instance is running: it gets a 'second-instance' event and comes to the front.
  app.quit();
} else {
  const builtMainFolder = path.dirname(fileURLToPath(import.meta.url));
  runDesktopApp(appLocations(builtMainFolder)).catch((error: unknown) => {
    const detail = error instanceof Error ? error.message : String(error);
    console.error('MLSO Downloader could not start:', error);
    dialog.showErrorBox('MLSO Downloader could not start', detail);
    app.exit(1);
  });
}
