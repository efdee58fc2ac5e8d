// Progress lines on stderr while the benchmark runs, so stdout carries only the tables.
import type { Sample } from './samples';
import { MIB } from './scenario';

export class Progress {
  private readonly started = performance.now();

  step(text: string): void {
    process.stderr.write(`[${this.elapsed()}] ${text}\n`);
  }

  note(text: string): void {
    process.stderr.write(`[${this.elapsed()}]   note: ${text}\n`);
  }

  sampleDone(sample: Sample): void {
    const rss = sample.peakRssBytes === undefined ? '-' : (sample.peakRssBytes / MIB).toFixed(0);
    process.stderr.write(
      `[${this.elapsed()}]   ${sample.files} files, wall ${sample.wallSeconds.toFixed(2)} s, batch ${sample.batchSeconds.toFixed(2)} s, peak RSS ${rss} MiB\n`,
    );
    if (sample.leftovers && sample.leftovers.length > 0) this.note(`hidden files left in the output folder: ${sample.leftovers.join(', ')}`);
  }

  seconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  private elapsed(): string {
    return `${this.seconds().toFixed(1).padStart(6)} s`;
  }
}
