// A campaign's folder layout: a template of sub-folders such as `{instrument}/{yyyy}/{mm}/{dd}` that places each
// file inside the campaign's folder. A template that could leave the folder is refused whole; values that come
// from the server (an observing plan, say) are made safe before they become part of a path.
import type { FileEntry } from '../api/schemas';
import { toSafeName } from '../files/safe-filename';
import { LISTING_COLUMNS } from '../listing/listing-columns';

/** The placeholders the listing's fields fill (listing-columns.ts), in the order the help and the campaign form list them. */
const PLACEHOLDERS = LISTING_COLUMNS.flatMap((column) => column.placeholders).sort((a, b) => a.order - b.order);
const PLACEHOLDERS_BY_NAME = new Map(PLACEHOLDERS.map((placeholder) => [placeholder.name, placeholder]));

export const LAYOUT_PLACEHOLDERS: readonly string[] = PLACEHOLDERS.map((placeholder) => placeholder.name);

export const LAYOUT_EXAMPLE = '{instrument}/{product}/{yyyy}/{mm}/{dd}';

export type LayoutCheck = { ok: true; template: string } | { ok: false; message: string };

const PLACEHOLDER = /\{([^{}]*)\}/g;
/** A folder name made from the server's text is cut to this many bytes of UTF-8. */
const LONGEST_FOLDER_BYTES = 120;
const LONGEST_TEMPLATE = 500;

/**
 * Checks a template: relative, `/` between folders, only known placeholders, no `.` or `..` folder, no
 * control characters or drive letters. Returns it normalised (no empty folders). A backslash is refused: on Windows
 * it separates folders, elsewhere it is a character of a name, so either reading would surprise someone.
 */
export function checkLayout(raw: string): LayoutCheck {
  const template = raw.trim();
  const refuse = (why: string): LayoutCheck => ({
    ok: false,
    message: `The folder layout "${printable(template)}" ${why}. Use folders and placeholders inside the campaign folder, e.g. ${LAYOUT_EXAMPLE}.`,
  });
  if (template === '') return { ok: true, template: '' };
  if (template.length > LONGEST_TEMPLATE) return refuse(`is longer than ${LONGEST_TEMPLATE} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(template)) return refuse('holds control characters');
  if (/^[\\/]/.test(template) || /^[a-z]:/i.test(template)) return refuse('is an absolute path');
  if (template.includes(':')) return refuse('holds a colon');
  if (template.includes('\\')) return refuse('holds a backslash (separate folders with /, on every system)');
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!PLACEHOLDERS_BY_NAME.has(name!)) {
      return refuse(`uses an unknown placeholder {${printable(name!)}} (known: ${LAYOUT_PLACEHOLDERS.map((known) => `{${known}}`).join(', ')})`);
    }
  }
  if (/[{}]/.test(template.replace(PLACEHOLDER, 'x'))) return refuse('has a brace that opens or closes no placeholder');
  // Spaces around a folder name are dropped (file systems and layoutFolderOf drop them too), so the template
  // stored is the one that checks the same again: "{instrument} /" is "{instrument}".
  const folders = template
    .split(/\/+/)
    .map((folder) => folder.trim())
    .filter((folder) => folder !== '');
  if (folders.some((folder) => folder === '.' || folder === '..')) return refuse('goes up or stays with "." or ".."');
  return { ok: true, template: folders.join('/') };
}

/**
 * The sub-folder (relative, `/` separators, '' for the folder itself) a listed file goes into under a checked
 * template. A placeholder the entry has no value for becomes `unknown`; a value is cut to one safe folder name.
 */
export function layoutFolderOf(template: string, entry: LayoutEntry): string {
  if (template === '') return '';
  let rule = layoutRules.get(template);
  if (!rule) {
    if (layoutRules.size >= MOST_TEMPLATES) layoutRules.clear();
    rule = compileTemplate(template);
    layoutRules.set(template, rule);
  }
  return rule(entry);
}

type LayoutEntry = Pick<FileEntry, 'instrument' | 'product' | 'date-obs'> & Record<string, unknown>;
type LayoutFolderRule = (entry: LayoutEntry) => string;
/** A folder of a template: its text, with each placeholder read from the entry (or `unknown`: not one we know). */
type FolderParts = readonly (string | (typeof PLACEHOLDERS)[number])[];

/**
 * Templates read into their parts once, by their text: a campaign sync places a million files under one template,
 * and reading it again for each (and making each folder name safe again) would cost that work a million times.
 */
const layoutRules = new Map<string, LayoutFolderRule>();
const MOST_TEMPLATES = 64;
/** Safe folder names a template remembers (by their text): a KCor mirror's days are a few thousand. */
const MOST_FOLDER_NAMES = 10_000;

function compileTemplate(template: string): LayoutFolderRule {
  const folders: FolderParts[] = template
    .split('/')
    .map((folder) => folder.split(PLACEHOLDER).map((part, index) => (index % 2 === 0 ? part : (PLACEHOLDERS_BY_NAME.get(part) ?? 'unknown'))));
  const safeNames = new Map<string, string>();
  const safeName = (text: string): string => {
    let safe = safeNames.get(text);
    if (safe === undefined) {
      if (safeNames.size >= MOST_FOLDER_NAMES) safeNames.clear();
      safe = safeFolderName(text);
      safeNames.set(text, safe);
    }
    return safe;
  };
  return (entry) => {
    let placed = '';
    for (const [index, parts] of folders.entries()) {
      let text = '';
      for (const part of parts) text += typeof part === 'string' ? part : valueText(part.value(entry));
      placed = index === 0 ? safeName(text) : `${placed}/${safeName(text)}`;
    }
    return placed;
  };
}

function valueText(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return 'unknown';
}

/** One folder name from text that may hold anything, by the rules of a file name (separators, `..` and device names never pass). */
function safeFolderName(text: string): string {
  return toSafeName(text, LONGEST_FOLDER_BYTES);
}

function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, '?');
}
