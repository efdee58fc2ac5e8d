// The states a download job moves through (see the engine for the transitions).
export const JOB_STATES = ['queued', 'active', 'paused', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
