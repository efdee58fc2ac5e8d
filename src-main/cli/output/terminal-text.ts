// Text as the command line shows it, on any stream: our own line breaks stay, and every other control character
// (from server text, or the user's own odd input) is escaped in JSON's `\u001b` form, so JSON stays valid and exact.
import { escapeControlCharacters } from '../../../src-shared/format/display-text';

export function terminalText(text: string): string {
  return escapeControlCharacters(text, { keepNewlines: true });
}
