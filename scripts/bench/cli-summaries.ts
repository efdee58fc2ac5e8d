// The JSON the CLI prints, checked at the boundary so a changed format fails with a clear message, not a NaN.
import { z } from 'zod';

const listedFileSchema = z.looseObject({
  'date-obs': z.string(),
  filename: z.string().min(1),
  url: z.string().min(1),
});
export type ListedFile = z.infer<typeof listedFileSchema>;

export const listingSchema = z.looseObject({ files: z.array(listedFileSchema) });

/**
 * `files --download --json`. `stats` comes with the parallel engine: batchSeconds runs from the first file request
 * to the last file finished (no process start, listing or sign-in); bytesReceived is what crossed the wire.
 */
export const downloadSummarySchema = z.looseObject({
  folder: z.string(),
  downloaded: z.array(z.looseObject({ filename: z.string(), bytes: z.number().nonnegative(), sha256: z.string() })),
  skipped: z.array(z.string()),
  failed: z.array(z.looseObject({ filename: z.string(), reason: z.string() })),
  stats: z
    .looseObject({
      batchSeconds: z.number().nonnegative(),
      bytesReceived: z.number().nonnegative(),
      bytesWritten: z.number().nonnegative(),
    })
    .optional(),
});
export type DownloadSummary = z.infer<typeof downloadSummarySchema>;

export function parseCliJson<T>(schema: z.ZodType<T>, stdout: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    throw new Error(`${what}: stdout is not JSON:\n${stdout.slice(0, 2000)}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${what}: unexpected JSON shape: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
