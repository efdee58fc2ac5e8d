// `movie --campaign NAME`: the campaign's files that are downloaded and still on disk, read from the state folder
// (held only while they are listed: the movie is made after it is let go, so a long movie does not keep a sync out;
// while the app or another run holds the folder, read beside it).
import { existsSync } from 'node:fs';
import { readStateLedger } from '../../core/app/open-engine';
import { CampaignStore } from '../../core/campaigns/campaign-store';
import { defaultStateFolder } from '../../core/state/state-folder';
import { UsageError } from '../exit-codes';

export async function campaignFilesOnDisk(name: string, stateDir: string | undefined): Promise<string[]> {
  const state = await readStateLedger(stateDir ?? defaultStateFolder(), { program: 'mlso-dl movie' });
  try {
    const store = new CampaignStore(state.state);
    const campaign = store.require(name);
    const files = store.files(campaign.id).filter((file) => file.state === 'done' && existsSync(file.targetPath));
    if (files.length === 0) throw new UsageError(`No file of the campaign "${campaign.name}" is on disk yet: sync it first (mlso-dl campaign sync).`);
    return files.map((file) => file.targetPath);
  } finally {
    state.close();
  }
}
