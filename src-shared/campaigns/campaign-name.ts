// Campaign names: what people call their sets ("2024 eclipse"), shown everywhere and used on the command line.
export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

const LONGEST_NAME = 100;

export function checkCampaignName(raw: string): NameCheck {
  const name = raw.trim();
  if (name === '') return { ok: false, message: 'Give the campaign a name, e.g. "2024 eclipse".' };
  if (name.length > LONGEST_NAME) return { ok: false, message: `A campaign name can be at most ${LONGEST_NAME} characters long.` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return { ok: false, message: 'A campaign name cannot hold control characters.' };
  return { ok: true, name };
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
