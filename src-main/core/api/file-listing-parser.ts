// The files listing, parsed as it streams in. Each entry is checked against fileEntrySchema as soon as it
// is complete and only the checked copy is kept, so memory holds the entries rather than the whole text,
// a parsed tree and a checked copy of that tree, several times the answer's size. Everything but
// the entries is checked with fileListingSchema at the end: unknown fields survive, and the messages for
// an answer that is not a listing are those of checking the whole answer at once. Memory is also bounded
// chunk by chunk, not only by the answer's overall cap: an entry (a real one is some 300 bytes) may not pass
// 64 KB, and everything besides the entries 4 MB, so one 50 MB string is refused once 64 KB of it are in,
// instead of being buffered whole by the tokenizer. Nesting is bounded too (MAX_NESTING), so that what is accepted
// can be written out again.
//
// The elements of `files` are not tokenized: at a million entries, the tokenizer's byte by byte work and objects
// built a property at a time would cost seconds. The bytes of the array are scanned only for where its elements
// end (commas and the closing bracket outside strings and nested values), and each run of complete elements is read
// by JSON.parse, as the whole answer would be; the tokenizer reads on after the array.
import { TokenParser, TokenType, Tokenizer, type ParsedTokenInfo } from '@streamparser/json';
import { fileEntrySchema, fileListingSchema, type FileEntry, type FileListing } from '../../../src-shared/api/schemas';
import { InvalidResponseError, MlsoError } from '../errors';
import { checkShape, notJson } from './json-answer';

/** How much of the beginning is kept, to describe an answer that is not JSON. */
const HEAD_BYTES = 1024;

/** Where the scan of a files array is between its elements: before the first, after a comma, in one, after one. */
const enum At {
  Start,
  BeforeElement,
  InElement,
  AfterElement,
}

/** Where the scan of a files array is (FileListingParser.scanFiles). */
interface FilesScan {
  at: At;
  /** In an element: the arrays and objects open in it. */
  depth: number;
  inString: boolean;
  /** After a backslash in a string. */
  escaped: boolean;
  /** The element is a number, true, false or null. */
  bare: boolean;
  /** The bytes of the element under way at the end of the chunks read so far. */
  pending: Buffer[];
}

const UTF8_BOM_BYTES = 3;

/**
 * Where the string under way from `from` ends: the index of its closing quote, or -1 when it goes on past the chunk
 * (then `scan.escaped` says whether the chunk ends in the middle of an escape).
 */
function closingQuote(scan: FilesScan, chunk: Uint8Array, from: number): number {
  let searchFrom = from;
  if (scan.escaped) {
    scan.escaped = false;
    searchFrom += 1;
  }
  for (;;) {
    const quote = chunk.indexOf(QUOTE, searchFrom);
    const end = quote < 0 ? chunk.length : quote;
    // The backslashes just before the quote (or the chunk's end): an odd number escape it (or what comes next).
    let backslashes = 0;
    while (end - backslashes - 1 >= searchFrom && chunk[end - backslashes - 1] === BACKSLASH) backslashes += 1;
    if (quote < 0) {
      scan.escaped = backslashes % 2 === 1;
      return -1;
    }
    if (backslashes % 2 === 0) return quote;
    searchFrom = quote + 1;
  }
}

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

// The bytes of the punctuation of JSON: quote, backslash, comma, braces and brackets.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LEFT_BRACE = 0x7b;
const RIGHT_BRACE = 0x7d;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
/** The most one element of `files` may take, as sent: some 200 times a real entry. */
export const MAX_ENTRY_BYTES = 64 * 1024;
/** The most the answer may take besides its `files` array: the query's echo and a few totals take some 200 bytes. */
export const MAX_OUTSIDE_FILES_BYTES = 4 * 1024 * 1024;
/**
 * The deepest arrays and objects may nest, in an entry (its own object is a level) or besides the files (the answer's
 * object is one): a listing nests 2 levels, and JSON.stringify (`files --json`) overflows the stack from some 5,000.
 */
export const MAX_NESTING = 64;
/** Thrown to stop a tokenizer at the files array (see listen). */
const FILES_ARRAY_BEGINS = new Error('the files array begins');

export class FileListingParser {
  private tokenizer = new Tokenizer();
  /** Where the tokenizer's offset 0 is in the answer: a new tokenizer reads on after each files array. */
  private tokenizerStart = 0;
  /** Gets every token but those of the entries, so it builds the answer with `files: []`. */
  private readonly outline = new TokenParser({ paths: ['$'] });
  /** The files array being scanned (see the top), from the byte after its opening bracket. */
  private filesScan: FilesScan | undefined;
  /** Where the scan of a files array just opened starts, in the answer: the tokenizer reads no further. */
  private scanFrom: number | undefined;
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
    this.listen(this.tokenizer);
    this.outline.onValue = ({ value }) => {
      this.answer = { value };
    };
    // Not thrown: the outline also hears the closing bracket of a files array from the scan, outside any tokenizer.
    this.outline.onError = (error) => {
      this.failure ??= error;
    };
  }

  private listen(tokenizer: Tokenizer): void {
    tokenizer.onToken = (token) => {
      if (tokenizer !== this.tokenizer || this.scanFrom !== undefined) return;
      this.route(token);
      // The scan takes the files array from here: throwing ends the tokenizer's write (it reports the throw to
      // onError, not heard, and is dropped) rather than letting it read the rest of the chunk for nothing, which
      // for a chunk holding thousands of files arrays was quadratic.
      if (this.scanFrom !== undefined) throw FILES_ARRAY_BEGINS;
    };
    tokenizer.onError = (error) => {
      if (tokenizer === this.tokenizer && this.scanFrom === undefined) this.failure ??= error;
    };
  }

  /** Feeds the next chunk of the answer; throws InvalidResponseError once it is clearly not a listing. */
  write(chunk: Uint8Array): void {
    this.keepHead(chunk);
    // The first tokenizer counts no offset for a byte order mark at the start.
    if (this.tokenizerStart === 0 && this.head[0] === 0xef && this.head[1] === 0xbb && this.head[2] === 0xbf) this.tokenizerStart = UTF8_BOM_BYTES;
    if (this.failure === undefined) this.feed(chunk, this.bytesSeen - chunk.length);
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

  /** A chunk of the answer that begins at `start`: to the tokenizer, and the elements of a files array to the scan. */
  private feed(chunk: Uint8Array, start: number): void {
    let from = 0;
    while (from < chunk.length && this.failure === undefined) {
      if (this.filesScan) {
        const end = this.scanFiles(this.filesScan, chunk, from, start);
        if (end === undefined) return;
        from = end;
      } else {
        this.tokenizer.write(from === 0 ? chunk : chunk.subarray(from));
        if (this.scanFrom === undefined) return;
        from = this.scanFrom - start;
        this.scanFrom = undefined;
      }
    }
  }

  /**
   * Scans a files array's bytes from `from` (`start` is where the chunk begins in the answer) and reads the elements
   * complete in it; returns where the answer goes on after the array's closing bracket (a new tokenizer reads on from
   * there), or undefined while the array is open or once the answer failed.
   */
  private scanFiles(scan: FilesScan, chunk: Uint8Array, from: number, start: number): number | undefined {
    // The elements complete in this chunk: from runFrom (after what `pending` holds) to runEnd, `complete` of them.
    let runFrom = scan.at === At.InElement ? from : -1;
    let runEnd = -1;
    let complete = 0;
    // Where the element under way began in this chunk (-1: in an earlier one).
    let elementFrom = -1;
    for (let index = from; index < chunk.length; index += 1) {
      const byte = chunk[index]!;
      if (scan.at === At.InElement) {
        let ends = -1;
        if (scan.inString) {
          // Most of a listing is text: its closing quote is searched for rather than read up to byte by byte.
          const closing = closingQuote(scan, chunk, index);
          if (closing < 0) break;
          index = closing;
          scan.inString = false;
          if (scan.depth === 0) ends = index + 1;
        } else if (scan.bare) {
          // A number, true, false or null ends where something else begins; that byte is read again below.
          if (byte === COMMA || byte === RIGHT_BRACKET || byte === RIGHT_BRACE || isSpace(byte)) ends = index;
        } else if (byte === QUOTE) {
          scan.inString = true;
        } else if (byte === LEFT_BRACE || byte === LEFT_BRACKET) {
          if (++scan.depth > MAX_NESTING) {
            // The elements before it are read first: a fault of theirs comes first, as it would have.
            if (complete > 0 && !this.readElements(scan, chunk, runFrom, runEnd, complete)) return undefined;
            this.failure = new InvalidResponseError(
              this.url,
              `files[${this.taken + this.entries.length}] nests more than ${MAX_NESTING} levels deep, far beyond any file entry`,
            );
            return undefined;
          }
        } else if ((byte === RIGHT_BRACE || byte === RIGHT_BRACKET) && --scan.depth === 0) {
          ends = index + 1;
        }
        if (ends < 0) continue;
        scan.at = At.AfterElement;
        runEnd = ends;
        complete += 1;
        if (ends === index + 1) continue;
      }
      if (isSpace(byte)) continue;
      if (scan.at === At.AfterElement && byte === COMMA) {
        scan.at = At.BeforeElement;
        this.elementStart = start + index + 1;
      } else if (byte === RIGHT_BRACKET && scan.at !== At.BeforeElement) {
        if (complete > 0 && !this.readElements(scan, chunk, runFrom, runEnd, complete)) return undefined;
        this.closeFiles(start + index);
        return index + 1;
      } else if (scan.at !== At.AfterElement && byte !== COMMA && byte !== RIGHT_BRACKET && byte !== RIGHT_BRACE) {
        scan.at = At.InElement;
        scan.depth = byte === LEFT_BRACE || byte === LEFT_BRACKET ? 1 : 0;
        scan.inString = byte === QUOTE;
        scan.bare = scan.depth === 0 && !scan.inString;
        elementFrom = index;
        if (runFrom < 0) runFrom = index;
      } else {
        return this.notJson();
      }
    }
    if (complete > 0 && !this.readElements(scan, chunk, runFrom, runEnd, complete)) return undefined;
    // The element under way waits for the rest of it (copied: the caller may use its buffer again).
    if (scan.at === At.InElement) scan.pending.push(Buffer.from(chunk.subarray(elementFrom < 0 ? from : elementFrom)));
    return undefined;
  }

  /**
   * Reads `count` complete elements, those `pending` held first and then the chunk's from `from` to `end`, in one
   * JSON.parse, and checks each; false once the answer failed (they are not JSON, or an entry is wrong).
   */
  private readElements(scan: FilesScan, chunk: Uint8Array, from: number, end: number, count: number): boolean {
    const last = Buffer.from(chunk.buffer, chunk.byteOffset + from, end - from);
    const bytes = scan.pending.length === 0 ? last : Buffer.concat([...scan.pending, last]);
    scan.pending = [];
    let values: unknown[];
    try {
      values = JSON.parse(`[${bytes.toString('utf8')}]`) as unknown[];
    } catch {
      values = [];
    }
    if (values.length !== count) return this.notJson() ?? false;
    try {
      for (const value of values) this.entries.push(checkShape(this.url, value, fileEntrySchema, ['files', this.taken + this.entries.length]));
    } catch (error) {
      this.failure ??= error;
      return false;
    }
    return true;
  }

  private notJson(): undefined {
    this.failure ??= new SyntaxError('the files array is not JSON');
    return undefined;
  }

  /** The files array closed at `offset`: the outline gets its bracket, and a new tokenizer reads on after it. */
  private closeFiles(offset: number): void {
    this.filesScan = undefined;
    this.track(TokenType.RIGHT_BRACKET);
    this.outline.write({ token: TokenType.RIGHT_BRACKET, value: ']' });
    this.inFiles = false;
    this.closedFilesBytes += offset + 1 - this.filesStart;
    // A space first takes the new tokenizer past the start, where a byte order mark would be allowed.
    this.tokenizer = new Tokenizer();
    this.listen(this.tokenizer);
    this.tokenizer.write(' ');
    this.tokenizerStart = offset;
  }

  /** The checked listing, once the whole answer has been written. */
  end(): FileListing {
    // An answer cut short inside its files array.
    if (this.filesScan && this.failure === undefined) this.failure = new SyntaxError('the answer ends inside its files array');
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
    if (this.depth === 0 && type === TokenType.LEFT_BRACE) {
      this.rootIsObject = true;
      this.memberNameNext = true;
    } else if (this.depth === 1 && this.rootIsObject) {
      this.followTopLevel(token);
    }
    this.track(type);
    if (this.depth > MAX_NESTING) {
      this.failure ??= new InvalidResponseError(this.url, `the answer nests more than ${MAX_NESTING} levels deep, far beyond any listing`);
      return;
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
      this.filesStart = this.tokenizerStart + token.offset;
      this.elementStart = this.filesStart + 1;
      this.entries = [];
      this.filesScan = { at: At.Start, depth: 0, inString: false, escaped: false, bare: false, pending: [] };
      this.scanFrom = this.elementStart;
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
