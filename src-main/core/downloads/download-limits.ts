// The engine's limits and defaults, in a module of their own: the command line's option definitions need them
// at start-up, without loading the engine (and SQLite) for `--help` or `--version`.
export const CONCURRENCY_LIMITS = { min: 1, max: 16, default: 4 } as const;
export const DEFAULT_MAX_ATTEMPTS = 5;
