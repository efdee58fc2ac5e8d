// Makes a result table's indexes on a thread of its own, with its own connection to the results file: over a million
// rows a CREATE INDEX takes the better part of a second, which on the core's thread would hold up every page, the
// download engine and the window's answers. The file is in WAL mode, so the core's connection reads on meanwhile;
// the caller (ResultDatabase) writes nothing to it until the index is made.
// The thread is plain JavaScript evaluated from a string, as the quick check's is: no entry file for each bundle to
// build and find.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let db;
parentPort.on('message', ({ id, sql }) => {
  try {
    if (!db) {
      const Database = require(workerData.sqlite);
      db = new Database(workerData.file, { fileMustExist: true });
      db.pragma('synchronous = OFF');
      db.pragma('cache_size = -4000');
    }
    db.exec(sql);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message) });
  }
});
`;

type Answer = { id: number; error?: string };

export class IndexBuilder {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  /** Runs `sql` (a CREATE INDEX) on the thread; rejects with what went wrong there. */
  run(sql: string): Promise<void> {
    const id = this.nextId++;
    const done = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    const worker = this.thread();
    // The thread keeps the process alive while it works, not while it waits.
    worker.ref();
    worker.postMessage({ id, sql });
    return done;
  }

  /** Stops the thread; what it was making is let go with the file (emptied at the next start). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('The search results were closed.'));
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlite: createRequire(import.meta.url).resolve('better-sqlite3'), file: this.file } });
    worker.on('message', ({ id, error }: Answer) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error === undefined) waiter?.resolve();
      else waiter?.reject(new Error(error));
    });
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', () => this.lost(worker, new Error('The thread that sorts search results stopped.')));
    this.worker = worker;
    return worker;
  }

  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(error);
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
