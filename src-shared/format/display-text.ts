// Text from a server, made fit to show a person: control characters could drive a terminal (ESC sequences
// retitle the window or rewrite the screen, C1 CSI does the same in one byte) and bidirectional overrides
// make `evil\u202egnp.fts` read as `evilstf.png`; over-long names would swamp a message.

/**
 * C0 controls, DEL, C1 controls, the bidirectional marks, embeddings, overrides and isolates, and the
 * Unicode line and paragraph separators (some terminals and viewers break lines at them).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, less the newline
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u001b` for ESC: the escape JSON uses, so escaped JSON text still parses to the exact strings. */
const escaped = (character: string): string => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Shows every control character as an escape (`\u001b`, `\u202e`). With `keepNewlines`, the newlines of
 * text we laid out ourselves stay; a server's field gets none, so a newline in it is escaped too.
 */
export function escapeControlCharacters(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? CONTROLS_BUT_NEWLINE : CONTROLS, escaped);
}

const HEAD = 60;
const TAIL = 20;

/** The first 60 and last 20 characters of a longer name, joined by "…" (the end keeps the extension). */
export function shortenForDisplay(name: string): string {
  if (name.length <= HEAD + 1 + TAIL) return name;
  // Code points, not UTF-16 units: a cut must not split a character in two.
  const characters = Array.from(name);
  if (characters.length <= HEAD + 1 + TAIL) return name;
  return `${characters.slice(0, HEAD).join('')}…${characters.slice(-TAIL).join('')}`;
}

/** A server's name as a message shows it: shortened first, then escaped, so no escape is cut in two. */
export function displayName(name: string): string {
  return escapeControlCharacters(shortenForDisplay(name));
}
