// `mock-server`: runs the bundled emulator of the MLSO data API until Ctrl-C, for demos and tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_EMAIL, createEmulator, type EmulatorOptions } from '../../emulator';
import { makeThrowawayTls, type ThrowawayTls } from '../../emulator/throwaway-tls';
import type { CliContext } from '../cli-context';
import { EXIT_OK } from '../exit-codes';
import { startListening } from './listen-problem';

export interface MockServerOptions {
  host: string;
  port: number;
  days?: number;
  lastDay?: string;
  cadence?: number;
  imageSize?: number;
  ucompImageSize?: number;
  latency?: number;
  bandwidth?: number;
  failureRate?: number;
  resetRate?: number;
  sessionLifetime?: number;
  registered?: string;
  bodyForm?: EmulatorOptions['bodyForm'];
  /** false with --no-byte-ranges. */
  byteRanges?: boolean;
  seed?: number;
  /** Serve https with a throwaway certificate. */
  tls?: boolean;
}

export async function mockServerCommand(context: CliContext, options: MockServerOptions): Promise<number> {
  const settings: Partial<EmulatorOptions> = {
    host: options.host,
    port: options.port,
    ...(options.days !== undefined ? { days: options.days } : {}),
    ...(options.lastDay !== undefined ? { lastDay: options.lastDay } : {}),
    ...(options.cadence !== undefined ? { cadenceSeconds: options.cadence } : {}),
    ...(options.imageSize !== undefined ? { imageSize: options.imageSize } : {}),
    ...(options.ucompImageSize !== undefined ? { ucompImageSize: options.ucompImageSize } : {}),
    ...(options.latency !== undefined ? { latencyMs: options.latency * 1000 } : {}),
    ...(options.bandwidth !== undefined ? { bandwidthBytesPerSecond: options.bandwidth } : {}),
    ...(options.failureRate !== undefined ? { failureRate: options.failureRate } : {}),
    ...(options.resetRate !== undefined ? { resetRate: options.resetRate } : {}),
    ...(options.sessionLifetime !== undefined ? { sessionLifetimeSeconds: options.sessionLifetime } : {}),
    ...(options.registered !== undefined
      ? {
          registeredEmails: options.registered
            .split(',')
            .map((e) => e.trim())
            .filter(Boolean),
        }
      : {}),
    ...(options.bodyForm !== undefined ? { bodyForm: options.bodyForm } : {}),
    ...(options.byteRanges === false ? { byteRanges: false } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  };
  // The throwaway authority lives as long as the server: its folder (private, mkdtemp's 0700) goes when it stops.
  const tlsFolder = options.tls ? await mkdtemp(path.join(tmpdir(), 'mlso-emulator-tls-')) : undefined;
  try {
    const tls = tlsFolder ? await makeThrowawayTls(tlsFolder) : undefined;
    return await serve(context, settings, options, tls);
  } finally {
    if (tlsFolder) await rm(tlsFolder, { recursive: true, force: true });
  }
}

async function serve(context: CliContext, settings: Partial<EmulatorOptions>, options: MockServerOptions, tls: ThrowawayTls | undefined): Promise<number> {
  const emulator = await startListening({ host: options.host, port: options.port }, () => createEmulator(settings, tls));
  // The address goes to stdout on a line of its own so scripts (and the benchmark) can read it. Listening on
  // every interface is said plainly: the network can reach the server, not only this computer.
  if (isWildcard(emulator.boundAddress)) {
    context.out.result(`MLSO API emulator listening on all interfaces (${emulator.boundAddress}), port ${emulator.port}; on this computer: ${emulator.url}`);
  } else {
    context.out.result(`MLSO API emulator listening on ${emulator.url}`);
  }
  context.out.info(
    `Registered e-mail${emulator.options.registeredEmails.length === 1 ? '' : 's'}: ${emulator.options.registeredEmails.join(', ') || DEMO_EMAIL}`,
  );
  if (tls) context.out.info(`Throwaway certificate authority: ${tls.caFile} (trust it with NODE_EXTRA_CA_CERTS=${tls.caFile})`);
  context.out.info(`Try: mlso-dl --base-url ${emulator.url} instruments      (Ctrl-C stops the server)`);
  await new Promise<void>((resolve) => {
    if (context.signal?.aborted) resolve();
    context.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await emulator.close();
  return EXIT_OK;
}

function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::';
}
