// Schemas of the MLSO data API's JSON answers, checked at the boundary.
// Every object schema is "loose": fields the API adds later (UCoMP's obs-plan, wave-region,
// wavelengths; new instruments' own fields) survive validation and reach the caller untouched.
import { z } from 'zod';

/** A timestamp as the service writes it (`YYYY-MM-DDTHH:MM:SS`, UT); kept as text, never reinterpreted. */
const timestamp = z.string();

/** `filesize` and `total_filesize` are documented as unreliable (sometimes 0); a missing or null value counts as 0. */
const unreliableSize = z
  .number()
  .nonnegative()
  .nullish()
  .transform((size) => size ?? 0);

export const aboutSchema = z.looseObject({
  documentation: z.string(),
  homepage: z.string(),
  support: z.string(),
  version: z.string(),
});
export type About = z.infer<typeof aboutSchema>;

export const instrumentIdsSchema = z.array(z.string().min(1));

export const instrumentSchema = z.looseObject({
  name: z.string(),
  doi: z.string(),
  'landing-page': z.string(),
  dates: z.looseObject({
    'start-date': timestamp,
    'end-date': timestamp,
  }),
});
export type Instrument = z.infer<typeof instrumentSchema>;

/** What `instruments()` returns for each id: the id joined with that instrument's details. */
export type InstrumentSummary = Instrument & {
  id: string;
  'start-date': string;
  'end-date': string;
};

const productEntrySchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  description: z.string(),
});
export type ProductEntry = z.infer<typeof productEntrySchema>;

export const productListSchema = z.looseObject({
  products: z.array(productEntrySchema),
});
export type ProductList = z.infer<typeof productListSchema>;

export const productMetadataSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  description: z.string(),
  // The spec names both lists; a server that leaves them out simply offers no filter check.
  filters: z.array(z.string()).optional(),
  formats: z.array(z.string()).optional(),
});
export type ProductMetadata = z.infer<typeof productMetadataSchema>;

export const fileEntrySchema = z.looseObject({
  'date-obs': timestamp,
  filename: z.string(),
  filesize: unreliableSize,
  instrument: z.string(),
  product: z.string(),
  url: z.string().min(1),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

export const fileListingSchema = z.looseObject({
  instrument: z.string(),
  product: z.string(),
  // Echoes of the query; the real service fills in the instrument's own dates when a bound was not sent.
  'start-date': timestamp.nullish(),
  'end-date': timestamp.nullish(),
  files: z.array(fileEntrySchema),
  total_filesize: unreliableSize,
});
export type FileListing = z.infer<typeof fileListingSchema>;

export const messageSchema = z.looseObject({ message: z.string() });
export type ServerMessage = z.infer<typeof messageSchema>;
