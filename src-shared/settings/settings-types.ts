// The app's preferences as the front ends and the core pass them around. The Settings type is derived from the
// table of definitions (setting-definitions.ts), where each setting is written once; the contract (contract.ts)
// carries them on its settings channels.
export type { Settings, WindowBounds } from './setting-definitions';
