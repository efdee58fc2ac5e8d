// Where a long value (a file name, a path, a coordinate system) may wrap in a narrow column: after punctuation
// inside it, never in the middle of a word or a number.

/**
 * The text cut after each `_ / \ : , ; =` and each `.` that a letter follows, for a `<wbr>` between the parts;
 * the parts joined are the text itself (copying a value copies it unchanged).
 */
export function partsBreakableAfterPunctuation(text: string): string[] {
  return text.split(/(?<=[_/\\:,;=]|\.(?=\p{L}))(?=\S)/u);
}
