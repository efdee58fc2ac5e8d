// The bundled MLSO data API emulator: the test double of every test and the demo server of the app.
// Besides /v1 (the API itself) it answers, for emulators running in another process:
//   GET  /__emulator/stats            -> EmulatorStats
//   POST /__emulator/reset-stats
//   POST /__emulator/options          {partial EmulatorOptions; null unsets publicBaseUrl} -> the options now in force
//   POST /__emulator/fault            {filename, fault, times?}
//   POST /__emulator/expire-sessions
export { createEmulator } from './create-emulator';
export type { RunningEmulator } from './running-emulator';
export { DEMO_EMAIL, DEFAULT_EMULATOR_OPTIONS, type EmulatorOptions } from './options';
export type { DownloadFault } from './faults';
