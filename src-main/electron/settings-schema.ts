// The JSON schema electron-store checks the preferences file against, built from the same limits the
// core's settings rules use, so a value the core accepts is always one the store accepts.
import type { Schema } from 'electron-store';
import type { Settings } from '../../src-shared/contract/contract';
import { EXISTING_FILE_POLICIES } from '../../src-shared/downloads/existing-file-policy';
import { CONCURRENCY_RANGE, LISTING_TIMEOUT_MINUTES_RANGE, MAX_LISTING_MEGABYTES_RANGE, RETRIES_RANGE } from '../../src-shared/settings/default-settings';

const text = { type: 'string' } as const;
const nonEmptyText = { type: 'string', minLength: 1 } as const;

export const SETTINGS_SCHEMA: Schema<Settings> = {
  baseUrl: { type: 'string', pattern: '^https?://' },
  apiVersion: nonEmptyText,
  clientName: nonEmptyText,
  downloadFolder: nonEmptyText,
  concurrency: { type: 'integer', minimum: CONCURRENCY_RANGE.min, maximum: CONCURRENCY_RANGE.max },
  retries: { type: 'integer', minimum: RETRIES_RANGE.min, maximum: RETRIES_RANGE.max },
  listingTimeoutMinutes: { type: 'integer', minimum: LISTING_TIMEOUT_MINUTES_RANGE.min, maximum: LISTING_TIMEOUT_MINUTES_RANGE.max },
  maxListingMegabytes: { type: 'integer', minimum: MAX_LISTING_MEGABYTES_RANGE.min, maximum: MAX_LISTING_MEGABYTES_RANGE.max },
  existingFiles: { enum: [...EXISTING_FILE_POLICIES] },
  lastEmail: text,
  rememberSession: { type: 'boolean' },
  useDemoServer: { type: 'boolean' },
  allowOtherHosts: { type: 'boolean' },
  windowBounds: {
    anyOf: [
      { type: 'null' },
      {
        type: 'object',
        properties: {
          x: { type: 'number' },
          y: { type: 'number' },
          width: { type: 'number', exclusiveMinimum: 0 },
          height: { type: 'number', exclusiveMinimum: 0 },
          maximized: { type: 'boolean' },
        },
        required: ['x', 'y', 'width', 'height'],
      },
    ],
  },
};
