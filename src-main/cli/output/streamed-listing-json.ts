// `files --json` written as the listing arrives, in the form of JSON.stringify(listing, null, 2). The entries
// come first and the other members after them: those are known only once the whole answer has arrived, and
// the order of an object's members carries no meaning in JSON.
import type { FileEntry, FileListing } from '../../../src-shared/api/schemas';

/** An entry of the files array, two levels deep: JSON.stringify puts no raw newline inside a string, so every newline is layout. */
const entryText = (file: FileEntry): string => `    ${JSON.stringify(file, null, 2).replace(/\n/g, '\n    ')}`;

export class StreamedListingJson {
  private started = false;

  /** Takes the next entries; returns the text to write now. */
  add(entries: readonly FileEntry[]): string {
    if (entries.length === 0) return '';
    const opening = this.started ? ',\n' : '{\n  "files": [\n';
    this.started = true;
    return opening + entries.map(entryText).join(',\n');
  }

  /** The rest of the answer (its `files` ignored: they were added), closing the object and the output's last line. */
  end(listing: FileListing): string {
    const { files: _added, ...rest } = listing;
    const files = this.started ? '\n  ]' : '{\n  "files": []';
    const members = JSON.stringify(rest, null, 2);
    // `members` is "{}" or "{\n  ...\n}": its lines without the opening brace follow the files.
    return members === '{}' ? `${files}\n}\n` : `${files},\n${members.slice(2)}\n`;
  }
}
