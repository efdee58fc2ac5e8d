// The fastest any client could fetch the batch over the emulated link: with c connections the files go in
// ceil(n/c) rounds, and each file costs one latency plus its body at the per-connection rate.
// (Idealised: every file the mean size, no time for TCP or the client's own work.)
import { BANDWIDTH_BYTES_PER_SECOND, LATENCY_SECONDS } from './scenario';

export function linkLimitSeconds(files: number, concurrency: number, meanBodyBytes: number): number {
  return Math.ceil(files / concurrency) * (LATENCY_SECONDS + meanBodyBytes / BANDWIDTH_BYTES_PER_SECOND);
}
