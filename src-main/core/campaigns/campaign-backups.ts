// Campaigns live in the download ledger's SQLite file, so a damaged ledger replaced by a new one (or a ledger
// deleted) would take them along. Every change to a campaign therefore also writes its definition to
// `<state folder>/campaigns/`, as a campaign file (the format of `campaign export`, without the file list) that
// also names its folder; a new ledger takes those copies back in.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { campaignSlug } from '../../../src-shared/campaigns/campaign-name';
import { FolderAccessError, fileSystemCode } from '../folder-errors';
import type { StateDatabase } from '../state/state-database';
import { readCampaignBackup, writeCampaignBackup, type ReadCampaignBackup } from './campaign-file';
import type { CampaignStore, StoredCampaign } from './campaign-store';

/** The folder of the copies, inside the state folder. */
export const CAMPAIGN_BACKUP_FOLDER = 'campaigns';
const SUFFIX = '.mlso-campaign.json';

/** What taking the copies back in did. */
export interface CampaignRestore {
  folder: string;
  restored: string[];
  /** Copies that could not be taken in, with why: they are left where they are. */
  unreadable: { file: string; reason: string }[];
}

export class CampaignBackups {
  constructor(readonly folder: string) {}

  /** The copies kept for the campaigns of this database: in its state folder (none for a database in memory). */
  static beside(state: StateDatabase): CampaignBackups | undefined {
    const file = state.location;
    return file === undefined ? undefined : new CampaignBackups(path.join(path.dirname(file), CAMPAIGN_BACKUP_FOLDER));
  }

  /** Writes the campaign's copy whole or not at all (a crash mid-write leaves the previous copy). */
  save(campaign: StoredCampaign): void {
    const file = this.fileOf(campaign.name);
    const partial = `${file}.${process.pid}.tmp`;
    this.onFolder(() => {
      mkdirSync(this.folder, { recursive: true });
      try {
        writeFileSync(partial, writeCampaignBackup(campaign), { flush: true });
        renameSync(partial, file);
      } finally {
        rmSync(partial, { force: true });
      }
    });
  }

  /**
   * Writes the copies that the campaigns lack or hold out of date: a ledger from a version before the copies, or a
   * crash between a change and its copy.
   */
  keepUpWith(campaigns: readonly StoredCampaign[]): void {
    for (const campaign of campaigns) {
      if (contentOf(this.fileOf(campaign.name)) !== writeCampaignBackup(campaign)) this.save(campaign);
    }
  }

  forget(name: string): void {
    this.onFolder(() => rmSync(this.fileOf(name), { force: true }));
  }

  /** A copy that cannot be written or removed is said as the state folder's problem, in plain words. */
  private onFolder(work: () => void): void {
    try {
      work();
    } catch (error) {
      const code = fileSystemCode(error);
      throw code ? new FolderAccessError(this.folder, 'state', 'write', code) : error;
    }
  }

  /** Every copy in the folder, read back; those that cannot be read are named with the reason. */
  readAll(): { campaigns: { file: string; campaign: ReadCampaignBackup }[]; unreadable: CampaignRestore['unreadable'] } {
    const campaigns: { file: string; campaign: ReadCampaignBackup }[] = [];
    const unreadable: CampaignRestore['unreadable'] = [];
    for (const name of this.names()) {
      const file = path.join(this.folder, name);
      try {
        campaigns.push({ file, campaign: readCampaignBackup(readFileSync(file, 'utf8')) });
      } catch (error) {
        unreadable.push({ file, reason: reasonOf(error) });
      }
    }
    return { campaigns, unreadable };
  }

  /**
   * One file per name: readable from the name, and told apart by a hash of the exact name where two names make
   * the same slug ("A b" and "a-b").
   */
  private fileOf(name: string): string {
    const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
    return path.join(this.folder, `${campaignSlug(name)}-${hash}${SUFFIX}`);
  }

  private names(): string[] {
    try {
      return readdirSync(this.folder)
        .filter((name) => name.endsWith(SUFFIX))
        .sort();
    } catch {
      // No copies yet.
      return [];
    }
  }
}

/**
 * Takes the copies into a new ledger's store (one that started empty). Never
 * throws: a copy that cannot be taken in is reported, and the start carries on.
 */
export function restoreCampaigns(store: CampaignStore, backups: CampaignBackups): CampaignRestore {
  const { campaigns, unreadable } = backups.readAll();
  const restored: string[] = [];
  for (const { file, campaign } of campaigns) {
    try {
      // Two copies whose names are the same name by today's rule ("Été" and "été", from before it) are two
      // campaigns: the second comes back as "été (2)", and its copy goes by that name from now on.
      const name = store.freeName(campaign.name);
      const created = store.create({
        name,
        folder: campaign.folder,
        layout: campaign.layout,
        queries: campaign.queries,
        autoSyncHours: campaign.autoSyncHours,
      });
      if (name !== campaign.name) {
        backups.save(created);
        backups.forget(campaign.name);
      }
      restored.push(name);
    } catch (error) {
      unreadable.push({ file, reason: reasonOf(error) });
    }
  }
  return { folder: backups.folder, restored, unreadable };
}

/** One or two sentences for the user: which campaigns came back, and which copies could not be read. */
export function describeCampaignRestore(restore: CampaignRestore): string {
  const names = restore.restored.map((name) => `"${name}"`);
  const restored =
    names.length === 0
      ? []
      : names.length === 1
        ? [`The campaign ${names[0]} was restored from its copy in ${restore.folder}.`]
        : [`The campaigns ${names.slice(0, -1).join(', ')} and ${names.at(-1)} were restored from their copies in ${restore.folder}.`];
  const unreadable = restore.unreadable.map(
    ({ file, reason }) => `The campaign copy ${file} could not be read (${reason.replace(/\.$/, '')}); it was left as it is.`,
  );
  return [...restored, ...unreadable].join(' ');
}

function contentOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
