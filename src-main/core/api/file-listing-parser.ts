// The files listing, parsed as it streams in. Each entry is checked against fileEntrySchema as soon as it
// is complete and only the checked copy is kept, so memory holds the entries rather than the whole text,
// a parsed tree and a checked copy of that tree (a 200 MB listing used to peak near 1 GB). Everything but
// the entries is checked with fileListingSchema at the end: unknown fields survive, and the messages for
// an answer that is not a listing are those of checking the whole answer at once. Memory is also bounded
// piece by piece, not only by the answer's overall cap: an entry (a real one is some 300 bytes) may not pass
// 64 KB, and everything besides the entries 4 MB, so one 50 MB string is refused once 64 KB of it are in,
// instead of being buffered whole by the tokenizer.
import { TokenParser, TokenType, Tokenizer, type ParsedTokenInfo } from '@streamparser/json';
import { fileEntrySchema, fileListingSchema, type FileEntry, type FileListing } from '../../../src-shared/api/schemas';
import { InvalidResponseError, MlsoError } from '../errors';
import { checkShape, notJson } from './json-answer';

/** How much of the beginning is kept, to describe an answer that is not JSON. */
const HEAD_BYTES = 1024;
/** The most one element of `files` may take, as sent: some 200 times a real entry. */
export const MAX_ENTRY_BYTES = 64 * 1024;
/** The most the answer may take besides its `files` array: the query's echo and a few totals take some 200 bytes. */
export const MAX_OUTSIDE_FILES_BYTES = 4 * 1024 * 1024;

export class FileListingParser {
  private readonly tokenizer = new Tokenizer();
  /** Gets every token but those of the entries, so it builds the answer with `files: []`. */
  private readonly outline = new TokenParser({ paths: ['$'] });
  /** Gets the tokens of the top-level files array; hands on each entry and lets go of it (keepStack: false). */
  private entryParser: TokenParser | undefined;
  private entries: FileEntry[] = [];
  /** Entries already handed out by takeEntries(): a repeated "files" can no longer replace them. */
  private taken = 0;
  private answer: { value: unknown } | undefined;
  private failure: unknown;
  private head = Buffer.alloc(0);
  private bytesSeen = 0;
  // Where the tokens are in the answer: containers open, and the member of the top-level object being read.
  private depth = 0;
  private rootIsObject = false;
  private memberNameNext = false;
  private member: string | undefined;
  private inFiles = false;
  // Byte offsets for the size limits: where the files array being read began, where its current element began,
  // and how many bytes the files arrays already closed took.
  private filesStart = 0;
  private elementStart = 0;
  private closedFilesBytes = 0;

  constructor(private readonly url: string) {
    this.tokenizer.onToken = (token) => this.route(token);
    // Entry checks throw from inside the tokenizer's callbacks and arrive here too, as themselves.
    this.tokenizer.onError = (error) => {
      this.failure ??= error;
    };
    this.outline.onValue = ({ value }) => {
      this.answer = { value };
    };
  }

  /** Feeds the next piece of the answer; throws InvalidResponseError once it is clearly not a listing. */
  write(chunk: Uint8Array): void {
    this.keepHead(chunk);
    if (this.failure === undefined) this.tokenizer.write(chunk);
    if (this.failure === undefined) this.checkSizes();
    // Text that is not JSON is described by its beginning, so a little more of it is read first.
    if (this.failure instanceof MlsoError || (this.failure !== undefined && this.head.length >= HEAD_BYTES)) this.throwIfFailed();
  }

  /**
   * The entries checked since the last call, handed over to the caller (and no longer held here): how a
   * listing is streamed. `end()` then returns the listing with only the entries not taken.
   */
  /** Entries checked and not yet taken. */
  get pendingEntries(): number {
    return this.entries.length;
  }

  takeEntries(): FileEntry[] {
    const batch = this.entries;
    this.entries = [];
    this.taken += batch.length;
    return batch;
  }

  /** The checked listing, once the whole answer has been written. */
  end(): FileListing {
    if (this.failure === undefined && !this.tokenizer.isEnded) {
      // A number is only known to be complete at the end, so a second top-level value such as the last 0 of
      // "00" reaches the outline here, and its complaint comes out of end() itself rather than through onError.
      try {
        this.tokenizer.end();
      } catch (error) {
        this.failure = error;
      }
    }
    this.throwIfFailed();
    // Nothing complete arrived: an empty body, or one cut short.
    if (!this.answer) throw notJson(this.url, this.headText(), this.bytesSeen > this.head.length);
    const listing = checkShape(this.url, this.answer.value, fileListingSchema);
    listing.files = this.entries;
    return listing;
  }

  private route(token: ParsedTokenInfo): void {
    const type = token.token;
    if (this.inFiles) {
      const closesFiles = this.depth === 2 && type === TokenType.RIGHT_BRACKET;
      if (this.depth === 2 && type === TokenType.COMMA) this.elementStart = token.offset + 1;
      this.track(type);
      this.entryParser?.write(token);
      if (!closesFiles) return;
      this.inFiles = false;
      this.closedFilesBytes += token.offset + 1 - this.filesStart;
    } else if (this.depth === 0 && type === TokenType.LEFT_BRACE) {
      this.rootIsObject = true;
      this.memberNameNext = true;
      this.track(type);
    } else {
      if (this.depth === 1 && this.rootIsObject) this.followTopLevel(token);
      this.track(type);
    }
    this.outline.write(token);
  }

  /** Tokens directly inside the top-level object: member names, and the start of the files array. */
  private followTopLevel(token: ParsedTokenInfo): void {
    if (token.token === TokenType.STRING && this.memberNameNext) {
      this.member = String(token.value);
      this.memberNameNext = false;
    } else if (token.token === TokenType.COMMA) {
      this.memberNameNext = true;
    } else if (token.token === TokenType.LEFT_BRACKET && this.member === 'files') {
      // A repeated "files" replaces the earlier one, as in JSON.parse; once entries were streamed on, it cannot.
      if (this.taken > 0) {
        this.failure ??= new InvalidResponseError(this.url, 'files: the answer lists its files twice');
        return;
      }
      this.inFiles = true;
      this.filesStart = token.offset;
      this.elementStart = token.offset + 1;
      this.entries = [];
      this.entryParser = new TokenParser({ paths: ['$.*'], keepStack: false });
      this.entryParser.onValue = ({ value }) => {
        this.entries.push(checkShape(this.url, value, fileEntrySchema, ['files', this.taken + this.entries.length]));
      };
      this.entryParser.write(token);
    }
  }

  /** Fails the answer once the element being read, or everything besides the files, outgrows its limit. */
  private checkSizes(): void {
    const inFilesNow = this.inFiles ? this.bytesSeen - this.filesStart : 0;
    if (this.inFiles && this.bytesSeen - this.elementStart > MAX_ENTRY_BYTES) {
      this.failure = new InvalidResponseError(
        this.url,
        `files[${this.taken + this.entries.length}] is longer than ${MAX_ENTRY_BYTES / 1024} KB, far beyond any file entry`,
      );
    } else if (this.bytesSeen - this.closedFilesBytes - inFilesNow > MAX_OUTSIDE_FILES_BYTES) {
      this.failure = new InvalidResponseError(this.url, `the answer holds more than ${MAX_OUTSIDE_FILES_BYTES / 1024 / 1024} MB besides its files`);
    }
  }

  private track(type: TokenType): void {
    if (type === TokenType.LEFT_BRACE || type === TokenType.LEFT_BRACKET) this.depth += 1;
    else if (type === TokenType.RIGHT_BRACE || type === TokenType.RIGHT_BRACKET) this.depth -= 1;
  }

  private keepHead(chunk: Uint8Array): void {
    this.bytesSeen += chunk.length;
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
  }

  private headText(): string {
    return this.head.toString('utf8').replace(/^\uFEFF/, '');
  }

  private throwIfFailed(): void {
    if (this.failure === undefined) return;
    if (this.failure instanceof MlsoError) throw this.failure;
    throw notJson(this.url, this.headText(), this.bytesSeen > this.head.length);
  }
}
