// A shared campaign file read as it streams in, so that a file list of a million files never sits in memory whole
// (its text, a parsed tree and a checked copy of it at once would take several times the file's size). The campaign's name, layout and queries
// come first, as `campaign export` writes them, and are handed on as soon as the file list begins; each file of the
// list is then checked as soon as it is complete, handed on in batches and let go of. Memory is bounded piece by
// piece, as in the listing parser: one entry may not pass 64 KB, everything besides the file list 4 MB, and the
// whole file the cap it was given.
import { TokenParser, TokenParserError, TokenType, Tokenizer, TokenizerError, type ParsedTokenInfo } from '@streamparser/json';
import type { z } from 'zod';
import { InvalidInputError } from '../errors';
import {
  MAX_CAMPAIGN_FILE_BYTES,
  campaignFileSchema,
  checkedCampaign,
  notReadable,
  sharedFileSchema,
  type ReadCampaignFile,
  type SharedFile,
} from './campaign-file';

/** The most one element of `files` may take: some 150 times a real entry (about 450 bytes). */
const MAX_SHARED_ENTRY_BYTES = 64 * 1024;
/** The most the file may take besides its file list: up to 100 queries take some 30 KB. */
const MAX_OUTSIDE_FILES_BYTES = 4 * 1024 * 1024;
/** Entries handed on at a time. */
const BATCH = 1000;

/** The members a file list must come after: what places and names the files. */
const HEADER_MEMBERS = ['format', 'version', 'name', 'layout', 'queries'] as const;

const headerSchema = campaignFileSchema.omit({ files: true });
type CampaignHeader = Omit<ReadCampaignFile, 'files'>;

export interface CampaignFileSink {
  /** The campaign's name, layout and queries, checked; once, before any entry. */
  header(header: CampaignHeader): void;
  /** The next checked entries of the file list, in order. */
  entries(batch: SharedFile[]): void;
}

export class CampaignFileReader {
  private readonly tokenizer = new Tokenizer();
  /** Gets every token but those inside the file list: emits each top-level member (the list as `[]`). */
  private readonly members = new TokenParser({ paths: ['$.*'], keepStack: false });
  private entryParser: TokenParser | undefined;
  private readonly seen: Record<string, unknown> = {};
  private batch: SharedFile[] = [];
  private entryCount = 0;
  private headerGiven = false;
  private failure: unknown;
  private bytesSeen = 0;
  private depth = 0;
  private rootSeen = false;
  private rootClosed = false;
  private memberNameNext = false;
  private member: string | undefined;
  private inFiles = false;
  private filesStart = 0;
  private elementStart = 0;
  private filesBytes = 0;

  constructor(
    private readonly sink: CampaignFileSink,
    private readonly maxBytes: number,
  ) {
    this.tokenizer.onToken = (token) => this.route(token);
    // Checks that throw from inside the tokenizer's callbacks arrive here too, as themselves.
    this.tokenizer.onError = (error) => {
      this.failure ??= error;
    };
    this.members.onValue = ({ key, value }) => {
      if (typeof key === 'string' && key !== 'files') this.seen[key] = value;
    };
  }

  /** The next piece of the file (text or UTF-8 bytes; a leading byte order mark is skipped). */
  write(chunk: Uint8Array | string): void {
    this.throwIfFailed();
    this.bytesSeen += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (this.bytesSeen > this.maxBytes) throw campaignFileTooLarge(this.maxBytes);
    this.tokenizer.write(chunk);
    this.throwIfFailed();
    this.checkSizes();
    this.flush();
  }

  /** Once the whole file was written: the last entries handed on, and the members after the file list checked. */
  end(): void {
    this.throwIfFailed();
    if (!this.rootSeen) throw notJson();
    if (!this.rootClosed) throw new InvalidInputError('That campaign file is cut short: export it again and copy it whole.');
    this.flush(true);
    const checked = checkedCampaign(parsedAs(campaignFileSchema, { ...this.seen, files: [] }));
    if (!this.headerGiven) this.giveHeader(checked);
  }

  private route(token: ParsedTokenInfo): void {
    const type = token.token;
    if (!this.rootSeen) {
      this.rootSeen = true;
      if (type !== TokenType.LEFT_BRACE) throw new InvalidInputError('That is not a campaign file this version can read (it is not a JSON object).');
      this.memberNameNext = true;
    }
    if (this.inFiles) {
      const closesFiles = this.depth === 2 && type === TokenType.RIGHT_BRACKET;
      if (this.depth === 2 && (type === TokenType.COMMA || closesFiles)) {
        // An entry that arrived whole within one piece is measured here; one still arriving, in checkSizes.
        if (token.offset - this.elementStart > MAX_SHARED_ENTRY_BYTES) throw entryTooLong(this.entryCount - 1);
        this.elementStart = token.offset + 1;
      }
      this.track(type);
      this.entryParser!.write(token);
      if (!closesFiles) return;
      this.inFiles = false;
      this.filesBytes += token.offset + 1 - this.filesStart;
    } else {
      if (this.depth === 1) this.followTopLevel(token);
      this.track(type);
      if (this.depth === 0 && type === TokenType.RIGHT_BRACE) this.rootClosed = true;
    }
    this.members.write(token);
  }

  /** Member names of the top-level object, and the start of the file list. */
  private followTopLevel(token: ParsedTokenInfo): void {
    if (token.token === TokenType.STRING && this.memberNameNext) {
      this.member = String(token.value);
      this.memberNameNext = false;
      // JSON.parse would keep the last; a list already handed on cannot be taken back, so neither is taken.
      if (this.member in this.seen || (this.member === 'files' && this.entryParser)) {
        throw new InvalidInputError(`That is not a campaign file this version can read (it holds "${this.member}" twice).`);
      }
    } else if (token.token === TokenType.COMMA) {
      this.memberNameNext = true;
    } else if (token.token === TokenType.LEFT_BRACKET && this.member === 'files') {
      this.startFiles(token);
    }
  }

  private startFiles(token: ParsedTokenInfo): void {
    const missing = HEADER_MEMBERS.filter((name) => !(name in this.seen));
    if (missing.length > 0) {
      throw new InvalidInputError(
        `That campaign file lists its files before its ${missing.map((name) => `"${name}"`).join(', ')}: this version reads them first, in the order \`campaign export\` writes them.`,
      );
    }
    this.giveHeader(checkedCampaign({ ...parsedAs(headerSchema, this.seen), files: [] }));
    this.inFiles = true;
    this.filesStart = token.offset;
    this.elementStart = token.offset + 1;
    this.entryParser = new TokenParser({ paths: ['$.*'], keepStack: false });
    this.entryParser.onValue = ({ value }) => {
      this.batch.push(parsedAs(sharedFileSchema, value, ['files', this.entryCount]));
      this.entryCount += 1;
    };
    this.entryParser.write(token);
  }

  private giveHeader(file: ReadCampaignFile): void {
    this.headerGiven = true;
    const { files: _files, ...header } = file;
    this.sink.header(header);
  }

  private flush(all = false): void {
    if (this.batch.length === 0 || (!all && this.batch.length < BATCH)) return;
    const batch = this.batch;
    this.batch = [];
    this.sink.entries(batch);
  }

  /** Fails the file once the entry being read, or everything besides the file list, outgrows its limit. */
  private checkSizes(): void {
    const inFilesNow = this.inFiles ? this.bytesSeen - this.filesStart : 0;
    if (this.inFiles && this.bytesSeen - this.elementStart > MAX_SHARED_ENTRY_BYTES) {
      throw entryTooLong(this.entryCount);
    }
    if (this.bytesSeen - this.filesBytes - inFilesNow > MAX_OUTSIDE_FILES_BYTES) {
      throw new InvalidInputError(
        `That is not a campaign file this version can read (it holds more than ${MAX_OUTSIDE_FILES_BYTES / 1024 / 1024} MB besides its file list).`,
      );
    }
  }

  private track(type: TokenType): void {
    if (type === TokenType.LEFT_BRACE || type === TokenType.LEFT_BRACKET) this.depth += 1;
    else if (type === TokenType.RIGHT_BRACE || type === TokenType.RIGHT_BRACKET) this.depth -= 1;
  }

  /** JSON the tokenizer or token parser refused is not JSON; anything else (a check, the store) is itself. */
  private throwIfFailed(): void {
    if (this.failure === undefined) return;
    if (this.failure instanceof TokenizerError || this.failure instanceof TokenParserError) throw notJson();
    throw this.failure;
  }
}

function parsedAs<T>(schema: z.ZodType<T>, value: unknown, at: (string | number)[] = []): T {
  const checked = schema.safeParse(value);
  if (!checked.success) throw notReadable(checked.error.issues[0]!, at);
  return checked.data;
}

const entryTooLong = (index: number): InvalidInputError =>
  new InvalidInputError(
    `That is not a campaign file this version can read (files[${index}] is longer than ${MAX_SHARED_ENTRY_BYTES / 1024} KB, far beyond any file entry).`,
  );

const notJson = (): InvalidInputError =>
  new InvalidInputError('That is not a campaign file: it is not JSON. Export one with `campaign export NAME --format campaign`.');

/** A file over the cap, with the cap said in the unit it was chosen in. */
export function campaignFileTooLarge(maxBytes: number): InvalidInputError {
  const said = maxBytes % 1024 ** 3 === 0 ? `${maxBytes / 1024 ** 3} GiB` : maxBytes % 1024 ** 2 === 0 ? `${maxBytes / 1024 ** 2} MiB` : `${maxBytes} bytes`;
  return new InvalidInputError(
    `The campaign file is larger than ${said}, the most this version takes in (some two million files, more than one campaign can sync and verify well): split it into smaller campaigns.`,
  );
}

/**
 * Reads a shared campaign file held as text, file list and all; anything wrong with it is one plain message naming
 * what. (Importing hands the entries on in batches instead of keeping them.)
 */
export function readCampaignFile(text: string): ReadCampaignFile {
  let header: CampaignHeader | undefined;
  const files: SharedFile[] = [];
  const reader = new CampaignFileReader(
    {
      header: (read) => {
        header = read;
      },
      entries: (batch) => {
        for (const file of batch) files.push(file);
      },
    },
    MAX_CAMPAIGN_FILE_BYTES,
  );
  reader.write(text);
  reader.end();
  return { ...header!, files };
}
