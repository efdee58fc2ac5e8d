// Campaign names: what people call their sets ("2024 eclipse"), shown everywhere and used on the command line.
// One rule says when two names are the same name (campaignNameKey): the store's uniqueness, finding a campaign by
// the name typed, and the app's register of running syncs all go by it.
export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

const LONGEST_NAME = 100;

/**
 * Characters that show nothing: zero-width spaces and joiners, word joiners, the BOM, bidi marks, variation
 * selectors, the Hangul fillers (Unicode's default-ignorable code points). A name differing only by them looks the
 * same, so they count for nothing when names are compared.
 */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** What leaves a name blank on the screen: the ignorables, spaces of every width, the braille blank, lone marks. */
const BLANK = /[\p{Default_Ignorable_Code_Point}\p{White_Space}\p{M}\u2800]/gu;

export function checkCampaignName(raw: string): NameCheck {
  // NFC: the same name typed on a Mac (decomposed accents) and elsewhere is stored and shown the same way.
  const name = raw.normalize('NFC').trim();
  if (name.replace(BLANK, '') === '') return { ok: false, message: 'Give the campaign a name, e.g. "2024 eclipse".' };
  if (name.length > LONGEST_NAME) return { ok: false, message: `A campaign name can be at most ${LONGEST_NAME} characters long.` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return { ok: false, message: 'A campaign name cannot hold control characters.' };
  return { ok: true, name };
}

/**
 * The name as compared: NFC, invisible characters left out, and case folded for every script (upper then lower
 * case, so "ß" and "SS", "ς" and "Σ" fold alike), not only ASCII as SQLite's NOCASE does. Two campaigns never share
 * a key.
 */
export function campaignNameKey(name: string): string {
  return name.normalize('NFC').replace(IGNORABLE, '').trim().toUpperCase().toLowerCase().normalize('NFC');
}

export function sameCampaignName(a: string, b: string): boolean {
  return campaignNameKey(a) === campaignNameKey(b);
}

/** A file or folder name made from a campaign name (exports, a default folder). */
export function campaignSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .toLowerCase();
  return slug === '' ? 'campaign' : slug.slice(0, 80);
}
