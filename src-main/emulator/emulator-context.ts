// What the request handlers share: the current options and the emulator's mutable parts.
import type { BodyCache } from './body-cache';
import type { Catalog } from './catalog';
import type { FaultPlan } from './faults';
import type { EmulatorOptions } from './options';
import type { EmulatorSessions } from './sessions';
import type { StatsRecorder } from './stats';

export interface EmulatorContext {
  options(): EmulatorOptions;
  /** Rebuilt lazily after a catalogue-shaping option changed. */
  catalog(): Catalog;
  /** host:port we listen on, for requests without a Host header. */
  listenAddress(): string;
  transformListing(): ((listing: Record<string, unknown>) => Record<string, unknown>) | undefined;
  readonly sessions: EmulatorSessions;
  readonly faults: FaultPlan;
  readonly stats: StatsRecorder;
  readonly bodies: BodyCache;
}
