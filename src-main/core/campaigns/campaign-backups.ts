// Campaigns live in the download ledger's SQLite file, so a damaged ledger replaced by a new one (or a ledger
// deleted, or another folder's copied over it) would take them along. Every change to a campaign therefore also
// writes its definition to `<state folder>/campaigns/`, as a campaign file (the format of `campaign export`, without
// the file list) that also names its folder; an imported campaign's shared file list is kept there too
// (shared-file-list.ts), as only it knows the SHA-256 each file was promised. A ledger that lacks a campaign whose
// copy is there takes it back in, with its list.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { campaignSlug, sameCampaignName } from '../../../src-shared/campaigns/campaign-name';
import { FolderAccessError, fileSystemCode } from '../folder-errors';
import type { StateDatabase } from '../state/state-database';
import { readCampaignBackup, sharedEntryOf, writeCampaignBackup, type ReadCampaignBackup, type SharedFile } from './campaign-file';
import { CampaignStore, type StoredCampaign } from './campaign-store';
import { readSharedFileList, sharedFileRecords, SharedFileListWriter } from './shared-file-list';

/** The folder of the copies, inside the state folder. */
export const CAMPAIGN_BACKUP_FOLDER = 'campaigns';
const SUFFIX = '.mlso-campaign.json';
const SHARED_LIST_SUFFIX = '.shared-files.jsonl';
/** Entries written to a list at a time. */
const LIST_BATCH = 1000;
/** A list still being written by the process of that id: `<pid>-<uuid>.shared-files.partial`. */
const PARTIAL_LIST = /^(\d+)-[0-9a-f-]+\.shared-files\.partial$/;

/** What taking the copies back in did. */
export interface CampaignRestore {
  folder: string;
  restored: string[];
  /** Copies that could not be taken in, with why: they are left where they are. */
  unreadable: { file: string; reason: string }[];
  /** Shared file lists that could not be read: their campaigns came back without them, and they are left as they are. */
  unreadableLists?: { campaign: string; file: string; reason: string }[];
  /**
   * The ledger the campaigns were missing from, when it was not new (one copied from another state folder, or an
   * older one put back): said, as nothing else explains why they were gone.
   */
  missingFrom?: string;
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

  /** The copy and the shared file list of a campaign that is gone. */
  forget(name: string): void {
    this.onFolder(() => {
      rmSync(this.fileOf(name), { force: true });
      rmSync(this.fileOf(name, SHARED_LIST_SUFFIX), { force: true });
    });
  }

  /** A copy found to be of no campaign (readAll's `file`): the copy alone, never a shared file list. */
  forgetCopy(file: string): void {
    this.onFolder(() => rmSync(file, { force: true }));
  }

  /** A campaign renamed: its copy goes by its new name, and its shared file list with it. */
  renamed(from: string, campaign: StoredCampaign): void {
    this.save(campaign);
    this.onFolder(() => {
      try {
        renameSync(this.fileOf(from, SHARED_LIST_SUFFIX), this.fileOf(campaign.name, SHARED_LIST_SUFFIX));
      } catch (error) {
        if (fileSystemCode(error) !== 'ENOENT') throw error;
      }
      rmSync(this.fileOf(from), { force: true });
    });
  }

  /** A shared file list to write as an import reads it; kept under the campaign's name by keepSharedList. */
  startSharedList(): SharedFileListWriter {
    this.onFolder(() => mkdirSync(this.folder, { recursive: true }));
    return new SharedFileListWriter(path.join(this.folder, `${process.pid}-${randomUUID()}.shared-files.partial`));
  }

  keepSharedList(list: SharedFileListWriter, name: string): void {
    this.onFolder(() => list.keepAs(this.fileOf(name, SHARED_LIST_SUFFIX)));
  }

  /** The campaign's kept shared file list, if any, handed on a piece at a time (readSharedFileList). */
  readSharedList(name: string, each: Parameters<typeof readSharedFileList>[1]): boolean {
    return readSharedFileList(this.fileOf(name, SHARED_LIST_SUFFIX), each);
  }

  sharedListFile(name: string): string {
    return this.fileOf(name, SHARED_LIST_SUFFIX);
  }

  /** Lists left half-written by an import that was killed: no process of theirs is running any more. */
  removeAbandonedLists(): void {
    for (const name of this.entries()) {
      const pid = PARTIAL_LIST.exec(name)?.[1];
      if (pid !== undefined && !isRunning(Number(pid))) rmSync(path.join(this.folder, name), { force: true });
    }
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
  private fileOf(name: string, suffix = SUFFIX): string {
    const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
    return path.join(this.folder, `${campaignSlug(name)}-${hash}${suffix}`);
  }

  private names(): string[] {
    return this.entries()
      .filter((name) => name.endsWith(SUFFIX))
      .sort();
  }

  private entries(): string[] {
    try {
      return readdirSync(this.folder);
    } catch {
      // No copies yet.
      return [];
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes back in the copies whose campaigns the ledger lacks (all of them, for a ledger that started empty), each
 * with its shared file list. Never throws: a copy or list that cannot be taken in is reported, and the start
 * carries on.
 */
export function restoreCampaigns(database: StateDatabase, backups: CampaignBackups): CampaignRestore {
  const store = new CampaignStore(database);
  const held = store.list();
  const { campaigns, unreadable } = backups.readAll();
  const restored: string[] = [];
  const unreadableLists: NonNullable<CampaignRestore['unreadableLists']> = [];
  for (const { file, campaign } of campaigns) {
    if (held.some((other) => sameCampaignName(other.name, campaign.name))) continue;
    try {
      if (held.some((other) => isRenamedCopy(campaign, other))) {
        // Left by a rename stopped between its copies: the campaign is there under its other name.
        backups.forgetCopy(file);
        continue;
      }
      // Two copies whose names are the same name by today's rule ("Été" and "été", from before it) are two
      // campaigns: the second comes back as "été (2)", and its copy goes by that name from now on.
      const name = store.freeName(campaign.name);
      const created = database.transaction(() => {
        const created = store.create({
          name,
          folder: campaign.folder,
          layout: campaign.layout,
          queries: campaign.queries,
          autoSyncHours: campaign.autoSyncHours,
        });
        try {
          // All of the list or none of it: a list cut short would promise only some of the files.
          database.transaction(() =>
            backups.readSharedList(campaign.name, (batch) => store.recordFiles(created.id, sharedFileRecords(created, batch).records)),
          );
        } catch (error) {
          unreadableLists.push({ campaign: name, file: backups.sharedListFile(campaign.name), reason: reasonOf(error) });
        }
        return created;
      });
      if (name !== campaign.name) backups.renamed(campaign.name, created);
      restored.push(name);
    } catch (error) {
      unreadable.push({ file, reason: reasonOf(error) });
    }
  }
  return {
    folder: backups.folder,
    restored,
    unreadable,
    ...(unreadableLists.length > 0 ? { unreadableLists } : {}),
    ...(!database.startedEmpty && restored.length > 0 && database.location ? { missingFrom: database.location } : {}),
  };
}

/** The copy is of `held` under a name it had before: made at the same moment, for the same folder. */
function isRenamedCopy(copy: ReadCampaignBackup, held: StoredCampaign): boolean {
  return copy.createdAt !== undefined && copy.createdAt === held.createdAt && copy.folder === held.folder;
}

/**
 * Writes out the promises of the shared file lists that campaigns of a ledger from before lists were kept carry (the
 * SHA-256 of files the archive did not give), once each: a new ledger then takes them back as it would a list kept
 * at import. A campaign with none is only marked.
 */
export function keepOlderSharedLists(store: CampaignStore, backups: CampaignBackups): void {
  for (const campaign of store.sharedListsUnkept()) {
    if (!existsSync(backups.sharedListFile(campaign.name))) {
      const list = backups.startSharedList();
      try {
        const batch: SharedFile[] = [];
        for (const file of store.filesPromised(campaign.id)) {
          batch.push(sharedEntryOf(file));
          if (batch.length === LIST_BATCH) list.add(batch.splice(0));
        }
        list.add(batch);
        backups.keepSharedList(list, campaign.name);
      } finally {
        list.discard();
      }
    }
    store.markSharedListKept(campaign.id);
  }
}

/** One or two sentences for the user: which campaigns came back (and why, when the ledger was not new), and which copies could not be read. */
export function describeCampaignRestore(restore: CampaignRestore): string {
  const names = restore.restored.map((name) => `"${name}"`);
  const them = names.length === 1 ? `the campaign ${names[0]}` : `the campaigns ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const restored =
    names.length === 0
      ? []
      : restore.missingFrom !== undefined
        ? [
            `The download ledger ${restore.missingFrom} did not hold ${them} (it may have been copied from another state folder, or an older one put back), so ${names.length === 1 ? 'it was' : 'they were'} restored from ${names.length === 1 ? 'its copy' : 'their copies'} in ${restore.folder}.`,
          ]
        : names.length === 1
          ? [`The campaign ${names[0]} was restored from its copy in ${restore.folder}.`]
          : [`The campaigns ${names.slice(0, -1).join(', ')} and ${names.at(-1)} were restored from their copies in ${restore.folder}.`];
  const unreadable = restore.unreadable.map(
    ({ file, reason }) => `The campaign copy ${file} could not be read (${reason.replace(/\.$/, '')}); it was left as it is.`,
  );
  const lists = (restore.unreadableLists ?? []).map(
    ({ campaign, file, reason }) =>
      `The shared file list ${file} could not be read (${reason.replace(/\.$/, '')}), so "${campaign}" came back without it; it was left as it is.`,
  );
  return [...restored, ...unreadable, ...lists].join(' ');
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
