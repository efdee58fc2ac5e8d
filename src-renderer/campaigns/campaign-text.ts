// How a campaign's parts read on screen: a query as one short line, a sync's time as "5 min ago", the example
// path a layout template gives. Presentation only; the rules themselves live in src-shared/campaigns.
import type { CampaignQuery } from '../../src-shared/campaigns/campaign-types';
import { layoutFolderOf } from '../../src-shared/campaigns/folder-layout';
import type { FilesQuery } from '../../src-shared/contract/contract';
import { FILTER_LABELS, FILTER_NAMES, type FilterQuery } from '../../src-shared/filters/filter-rules';
import { utMinute } from '../../src-shared/format/ut-minute';

/** The filters of a query as one line: the dates first ("from 2025-03-24 UT, open-ended"), then the rest by label. */
export function describeFilters(filters: FilterQuery): string {
  const start = filters['start-date'];
  const end = filters['end-date'];
  const parts: string[] = [];
  if (start && end) parts.push(start === end ? `${start} UT` : `${start} – ${end} UT`);
  else if (start) parts.push(`from ${start} UT, open-ended`);
  else if (end) parts.push(`until ${end} UT`);
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (name === 'start-date' || name === 'end-date' || value === undefined || value === '') continue;
    parts.push(`${FILTER_LABELS[name]} ${value}`);
  }
  if (!start && !end && !filters.cr) parts.unshift('all dates, open-ended');
  return parts.join(' · ');
}

/** A search on screen as a campaign query: only the filters that are set, as the text the rules normalised. */
export function campaignQueryOf(query: FilesQuery): CampaignQuery {
  const filters: FilterQuery = {};
  for (const name of FILTER_NAMES) {
    const value = query.filters[name];
    if (value !== undefined && value !== null && String(value).trim() !== '') filters[name] = String(value).trim();
  }
  return { instrument: query.instrument, product: query.product, filters };
}

export function sameQuery(a: CampaignQuery, b: CampaignQuery): boolean {
  if (a.instrument !== b.instrument || a.product !== b.product) return false;
  return FILTER_NAMES.every((name) => (a.filters[name] ?? '') === (b.filters[name] ?? ''));
}

/** "just now", "5 min ago", "3 h ago", "2 days ago" from an ISO 8601 instant. */
export function timeAgo(iso: string, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** An ISO 8601 instant as `YYYY-MM-DD HH:MM UT`. */
export function exactTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? `${utMinute(ms)} UT` : iso;
}

/**
 * Where a typical file of the campaign would go under a checked template: the first query's product, observed
 * at its start date (or an example day), with UCoMP-like wave region and plan values for those placeholders.
 */
export function examplePath(folder: string, template: string, query: CampaignQuery | undefined): string {
  const instrument = query?.instrument ?? 'kcor';
  const product = query?.product ?? 'pb';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(query?.filters['start-date'] ?? '')?.[0] ?? '2025-03-24';
  const compact = day.replaceAll('-', '');
  const filename = instrument === 'kcor' ? `${compact}_180000_kcor_l2_${product}.fts` : `${compact}.180000.${instrument}.1074.${product}.fts`;
  const placed = layoutFolderOf(template, { instrument, product, 'date-obs': `${day}T18:00:00`, 'wave-region': '1074', 'obs-plan': 'synoptic' });
  // Show the path with the folder's own separator, so a Windows folder does not read half with slashes.
  const separator = folder.includes('\\') && !folder.includes('/') ? '\\' : '/';
  const base = folder.replace(/[\\/]+$/, '');
  return [base, ...(placed === '' ? [] : placed.split('/')), filename].join(separator);
}
