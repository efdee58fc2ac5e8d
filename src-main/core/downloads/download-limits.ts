// The engine's limits and defaults, in a module of their own: the command line's option definitions need them
// at start-up, without loading the engine (and SQLite) for `--help` or `--version`. They are the app's settings'
// (the one table in src-shared), so the command line and the app take the same values.
import { SETTING_DEFINITIONS } from '../../../src-shared/settings/setting-definitions';

export const CONCURRENCY_LIMITS = { ...SETTING_DEFINITIONS.concurrency.range, default: SETTING_DEFINITIONS.concurrency.default } as const;
export const RETRIES_LIMITS = { ...SETTING_DEFINITIONS.retries.range, default: SETTING_DEFINITIONS.retries.default } as const;
export const DEFAULT_MAX_ATTEMPTS = RETRIES_LIMITS.default + 1;
