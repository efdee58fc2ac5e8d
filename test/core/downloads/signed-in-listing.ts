// What the one-file download tests start from: before each test, a client signed in to the test file's emulator and
// the KCor pB files it lists for 20:00-20:05 UT on the last observing day.
import { beforeEach } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { DEMO_EMAIL, type RunningEmulator } from '../../../src-main/emulator';

export interface SignedInListing {
  client: MlsoClient;
  files: FileEntry[];
}

export function useSignedInListing(emulator: () => RunningEmulator): SignedInListing {
  const listed = { files: [] } as unknown as SignedInListing;
  beforeEach(async () => {
    listed.client = new MlsoClient({ baseUrl: emulator().url });
    await listed.client.authenticate(DEMO_EMAIL);
    const filters = { 'start-date': '2025-03-24T20:00:00', 'end-date': '2025-03-24T20:05:00' };
    listed.files = (await listed.client.files({ instrument: 'kcor', product: 'pb', filters })).files;
  });
  return listed;
}
