// The campaign file people share: the queries and the layout, and optionally the resolved file list with each file's
// SHA-256, so that a colleague's sync reproduces the same files. Read back through a schema: it comes from anywhere.
import path from 'node:path';
import { z } from 'zod';
import type { CampaignQuery } from '../../../src-shared/campaigns/campaign-types';
import { checkFilters, FILTER_NAMES } from '../../../src-shared/filters/filter-rules';
import { checkLayout } from '../../../src-shared/campaigns/folder-layout';
import { checkCampaignName } from '../../../src-shared/campaigns/campaign-name';
import { InvalidInputError } from '../errors';
import type { CampaignFileRecord, CampaignFileState, StoredCampaign } from './campaign-store';

const CAMPAIGN_FILE_FORMAT = 'mlso-downloader-campaign';
const CAMPAIGN_FILE_VERSION = 1;

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The largest campaign file taken in: 1 GiB, some two million files at about 450 bytes each. Read as it streams in,
 * a file that size takes little memory, but a campaign of more files would be more than its syncs and verifies,
 * which hold its file list whole, can do well.
 */
export const MAX_CAMPAIGN_FILE_BYTES = 1024 ** 3;

export const sharedFileSchema = z.object({
  path: z.string().min(1).max(1000),
  filename: z.string().min(1).max(255),
  url: z.string().min(1).max(4000),
  instrument: z.string().min(1).max(100),
  product: z.string().min(1).max(100),
  'date-obs': z.string().max(40).nullable(),
  'wave-region': z.string().max(100).nullable().optional(),
  'obs-plan': z.string().max(200).nullable().optional(),
  filesize: z.number().int().nonnegative().optional(),
  sha256: z.string().regex(SHA256).nullable().optional(),
});
export type SharedFile = z.infer<typeof sharedFileSchema>;

export const campaignFileSchema = z.object({
  format: z.literal(CAMPAIGN_FILE_FORMAT),
  version: z.literal(CAMPAIGN_FILE_VERSION),
  name: z.string(),
  layout: z.string().max(500),
  autoSyncHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .nullable()
    .optional(),
  queries: z
    .array(
      z.object({
        instrument: z.string().min(1).max(100),
        product: z.string().min(1).max(100),
        filters: z.partialRecord(z.enum(FILTER_NAMES as [string, ...string[]]), z.string().max(100)),
      }),
    )
    .min(1)
    .max(100),
  files: z.array(sharedFileSchema).optional(),
});

export interface ReadCampaignFile {
  name: string;
  layout: string;
  autoSyncHours: number | null;
  queries: CampaignQuery[];
  files: SharedFile[];
}

export function writeCampaignFile(campaign: StoredCampaign, files: readonly CampaignFileState[] | undefined): string {
  return `${JSON.stringify(
    {
      format: CAMPAIGN_FILE_FORMAT,
      version: CAMPAIGN_FILE_VERSION,
      name: campaign.name,
      layout: campaign.layout,
      autoSyncHours: campaign.autoSyncHours,
      queries: campaign.queries,
      ...(files
        ? {
            files: files.map((file) => ({
              ...sharedEntryOf(file),
              // The shared list's SHA-256 stays the set's: a file that differs from it is reported, never re-shared as the new one.
              sha256: file.expectedSha256 ?? (file.state === 'done' ? file.sha256 : null),
            })),
          }
        : {}),
    },
    null,
    2,
  )}\n`;
}

/** A campaign's file as an entry of a shared file list, with the SHA-256 a shared list promised for it (if any). */
export function sharedEntryOf(file: CampaignFileRecord): SharedFile {
  return {
    path: file.relativePath,
    filename: file.filename,
    url: file.url,
    instrument: file.instrument,
    product: file.product,
    'date-obs': file.dateObs,
    'wave-region': file.waveRegion,
    'obs-plan': file.obsPlan,
    filesize: file.filesize,
    sha256: file.expectedSha256,
  };
}

/**
 * The copy of a campaign kept beside the ledger (see campaign-backups): a campaign file without its file list,
 * plus the campaign's folder, which a shared file leaves out (a colleague's folder means nothing here), and when it
 * was made, which tells a copy left under an old name (a rename stopped half-way) from another campaign. It reads
 * as a campaign file too, so `campaign import` takes it.
 */
export function writeCampaignBackup(campaign: StoredCampaign): string {
  const shared = JSON.parse(writeCampaignFile(campaign, undefined)) as Record<string, unknown>;
  return `${JSON.stringify({ ...shared, folder: campaign.folder, createdAt: campaign.createdAt }, null, 2)}\n`;
}

export interface ReadCampaignBackup extends ReadCampaignFile {
  folder: string;
  /** Absent from the copies of versions before it was kept. */
  createdAt?: string;
}

export function readCampaignBackup(text: string): ReadCampaignBackup {
  const file = parsedAs(campaignBackupSchema, text);
  if (!path.isAbsolute(file.folder)) throw new InvalidInputError(`The campaign's folder must be a full path, not "${file.folder}".`);
  return { ...checkedCampaign(file), folder: path.resolve(file.folder), ...(file.createdAt !== undefined ? { createdAt: file.createdAt } : {}) };
}

const campaignBackupSchema = campaignFileSchema.extend({ folder: z.string().min(1).max(4096), createdAt: z.string().max(40).optional() });

function parsedAs<T>(schema: z.ZodType<T>, text: string): T {
  let parsed: unknown;
  try {
    // A byte order mark, as some editors write, is not part of the JSON.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new InvalidInputError('That is not a campaign file: it is not JSON. Export one with `campaign export NAME --format campaign`.');
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) throw notReadable(checked.error.issues[0]!);
  return checked.data;
}

/** A campaign file that parsed but that a schema refused: which check, and where (`files.12.sha256`). */
export function notReadable(issue: z.core.$ZodIssue, at: readonly (string | number)[] = []): InvalidInputError {
  const where = [...at, ...issue.path].map(String);
  return new InvalidInputError(`That is not a campaign file this version can read (${issue.message}${where.length > 0 ? ` at ${where.join('.')}` : ''}).`);
}

/** The names, layout and filters of a campaign file that parsed, checked by the rules a typed campaign meets. */
export function checkedCampaign(file: z.infer<typeof campaignFileSchema>): ReadCampaignFile {
  const name = checkCampaignName(file.name);
  if (!name.ok) throw new InvalidInputError(name.message);
  const layout = checkLayout(file.layout);
  if (!layout.ok) throw new InvalidInputError(layout.message);
  const queries = file.queries.map((query) => {
    const filters = checkFilters(query.filters);
    if (!filters.ok) throw new InvalidInputError(filters.problems.map((problem) => problem.message).join(' '));
    return { instrument: query.instrument, product: query.product, filters: filters.query };
  });
  return { name: name.name, layout: layout.template, autoSyncHours: file.autoSyncHours ?? null, queries, files: file.files ?? [] };
}
