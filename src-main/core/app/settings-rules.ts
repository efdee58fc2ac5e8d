// Checks a change of preferences before it is saved, with messages a person can act on.
import path from 'node:path';
import type { Settings } from '../../../src-shared/contract/contract';
import { EXISTING_FILE_POLICIES } from '../../../src-shared/downloads/existing-file-policy';
import { CONCURRENCY_RANGE, RETRIES_RANGE } from '../../../src-shared/settings/default-settings';
import { normaliseSettings } from '../api/client-settings';
import { InvalidInputError } from '../errors';

function wholeNumber(value: unknown, range: { min: number; max: number }, label: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new InvalidInputError(`${label} must be a whole number from ${range.min} to ${range.max}.`);
  }
  return value;
}

/** The settings after `change`, checked and tidied; throws InvalidInputError naming the first bad value. */
export function applySettingsChange(current: Settings, change: Partial<Settings>): Settings {
  const next: Settings = { ...current, ...change };
  const client = normaliseSettings({ baseUrl: next.baseUrl, apiVersion: next.apiVersion, clientName: next.clientName });
  next.baseUrl = client.baseUrl;
  next.apiVersion = client.apiVersion;
  next.clientName = client.clientName;
  next.concurrency = wholeNumber(next.concurrency, CONCURRENCY_RANGE, 'Concurrency');
  next.retries = wholeNumber(next.retries, RETRIES_RANGE, 'Retries');
  if (!EXISTING_FILE_POLICIES.includes(next.existingFiles)) {
    throw new InvalidInputError(`When a file is already there, choose one of: ${EXISTING_FILE_POLICIES.join(', ')}.`);
  }
  const folder = typeof next.downloadFolder === 'string' ? next.downloadFolder.trim() : '';
  if (folder.length === 0 || !path.isAbsolute(folder)) {
    throw new InvalidInputError('The download folder must be a full path, such as /home/you/MLSO or C:\\Users\\you\\MLSO.');
  }
  next.downloadFolder = path.normalize(folder);
  if (typeof next.lastEmail !== 'string') next.lastEmail = '';
  next.rememberSession = Boolean(next.rememberSession);
  next.useDemoServer = Boolean(next.useDemoServer);
  const bounds = next.windowBounds;
  const validBounds =
    bounds === null ||
    (typeof bounds === 'object' && ['x', 'y', 'width', 'height'].every((key) => Number.isFinite((bounds as unknown as Record<string, unknown>)[key])));
  if (!validBounds) next.windowBounds = null;
  return next;
}
