// Shows the engine's progress: on a terminal an overall bar plus a line per active file with its speed
// and ETA; elsewhere (a pipe, a log file) plain lines as files finish or fail.
import cliProgress from 'cli-progress';
import type { JobView, ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { displayName } from '../../../src-shared/format/display-text';
import { humanSize } from '../../../src-shared/format/human-size';
import type { CliOutput } from './cli-output';

export interface DownloadDisplay {
  update(update: ProgressUpdate): void;
  stop(): void;
}

export function formatSeconds(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--:--';
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

const rate = (bytesPerSecond: number): string => `${humanSize(Math.round(bytesPerSecond))}/s`;

export function createDownloadDisplay(out: CliOutput): DownloadDisplay {
  return out.interactive ? new TerminalDisplay(out) : new LineDisplay(out);
}

class TerminalDisplay implements DownloadDisplay {
  private readonly bars: cliProgress.MultiBar;
  private readonly overall: cliProgress.SingleBar;
  private readonly fileBars = new Map<number, cliProgress.SingleBar>();

  constructor(out: CliOutput) {
    this.bars = new cliProgress.MultiBar(
      { stream: out.stderr as NodeJS.WriteStream, hideCursor: true, clearOnComplete: false, autopadding: true, format: '{bar} {label}' },
      cliProgress.Presets.shades_classic,
    );
    this.overall = this.bars.create(1, 0, { label: 'starting…' });
  }

  update({ jobs, overall }: ProgressUpdate): void {
    const finished = overall.done + overall.failed + overall.cancelled;
    this.overall.setTotal(Math.max(1, overall.total));
    this.overall.update(finished, {
      label: `${finished}/${overall.total} files | ${humanSize(overall.bytesWritten)} | ${rate(overall.speed)} | ETA ${formatSeconds(overall.etaSeconds)}${overall.failed > 0 ? ` | ${overall.failed} failed` : ''}`,
    });
    for (const job of jobs) this.updateFile(job);
  }

  private updateFile(job: JobView): void {
    let bar = this.fileBars.get(job.id);
    if (job.state !== 'active') {
      if (bar) {
        this.bars.remove(bar);
        this.fileBars.delete(job.id);
      }
      return;
    }
    const total = Math.max(job.expectedSize, job.bytesReceived, 1);
    if (!bar) {
      bar = this.bars.create(total, 0, { label: '' });
      this.fileBars.set(job.id, bar);
    }
    const eta = job.speed > 0 && job.expectedSize > job.bytesReceived ? (job.expectedSize - job.bytesReceived) / job.speed : null;
    bar.setTotal(total);
    // The bars write to the terminal directly, past CliOutput: the name is made safe here.
    bar.update(job.bytesReceived, { label: `${displayName(job.localName)} ${rate(job.speed)} ETA ${formatSeconds(eta)}` });
  }

  stop(): void {
    this.bars.stop();
  }
}

class LineDisplay implements DownloadDisplay {
  private readonly reported = new Map<number, string>();
  /** Files finished so far, counted here: one update may carry several, each gets its own number. */
  private finished = 0;

  constructor(private readonly out: CliOutput) {}

  update({ jobs, overall }: ProgressUpdate): void {
    for (const job of jobs) {
      // A file newly queued says nothing yet: remembering it would keep a number for each of a million files.
      if (job.state === 'queued' && !job.lastError && !this.reported.has(job.id)) continue;
      if (this.reported.get(job.id) === job.state) continue;
      if (job.state === 'done' || job.state === 'failed') this.finished += 1;
      const counter = `[${this.finished}/${overall.total}]`;
      const name = displayName(job.localName);
      if (job.state === 'done') this.out.info(`${counter} ${name} ${humanSize(job.bytesWritten)}`);
      else if (job.state === 'failed') this.out.error(`${counter} ${name} failed: ${job.lastError ?? 'unknown error'}`);
      else if (job.state === 'queued' && job.lastError) this.out.detail(`${name}: ${job.lastError}; will retry`);
      this.reported.set(job.id, job.state);
    }
  }

  stop(): void {}
}
