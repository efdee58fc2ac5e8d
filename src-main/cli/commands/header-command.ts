// `header FILE.fts [--hdu N] [--json]`: the header cards, as the file holds them (one 80-column record per
// line, a continued long string over its CONTINUE records) or, with --json, as keyword, type, value and comment.
// Of a damaged file (cut short, fewer HDUs than its primary header declares, a header that breaks) it still
// prints the headers that arrived whole, as astropy's fitsheader does, since one inspects such a file to see
// what it is; then the reader's one-line refusal, and status 2, so a script never takes it for a whole file.
import type { FitsCard } from '../../../src-science/fits/fits-cards';
import { describeHdu, missingHdu, type FitsFile, type FitsHdu } from '../../../src-science/fits/fits-file';
import { describeSamples } from '../../../src-science/fits/pixel-scaling';
import type { CliIo } from '../cli-context';
import type { CliOutput } from '../output/cli-output';
import { EXIT_OK } from '../exit-codes';
import type { GlobalOptions } from '../global-options';
import { stopAtOnceDuring } from '../stop-at-once';
import { asUsageError, FitsFileRefusal, parseHdu, warnIfShortBlock } from './fits-file-input';
import { openFitsFile } from './fits-file-on-disk';
import { jsonText } from '../output/json-values';
import { jsonCard } from './header-json';
import { localOutput } from './local-output';

export interface HeaderOptions {
  hdu?: string;
  json?: boolean;
}

export async function headerCommand(globals: GlobalOptions, io: CliIo, path: string, options: HeaderOptions): Promise<number> {
  const out = localOutput(globals, io);
  const chosen = parseHdu(options.hdu);
  let file: FitsFile;
  try {
    // Headers only: the data units are skipped, so a 2 GB image costs its header blocks, not 2 GB. Parsing is
    // synchronous work with nothing to undo (a file of 100,000 HDUs takes a while): a stop signal ends it at once.
    file = stopAtOnceDuring(io.signal, () => {
      const opened = openFitsFile(path);
      opened.close();
      return opened.file;
    });
  } catch (error) {
    // The asked-for HDU, or every one, as far as the headers arrived whole; the refusal follows on stderr.
    if (error instanceof FitsFileRefusal) printHeaders(out, error.hdus, chosen, options);
    throw error;
  }
  if (chosen !== undefined && !file.hdus[chosen]) throw asUsageError(missingHdu(file, chosen));
  warnIfShortBlock(out, file);
  printHeaders(out, file.hdus, chosen, options);
  return EXIT_OK;
}

/** One HDU asked for: its cards alone. Otherwise every HDU, each under a line saying which it is. Nothing of none. */
function printHeaders(out: CliOutput, hdus: readonly FitsHdu[], chosen: number | undefined, options: HeaderOptions): void {
  if (chosen !== undefined) {
    const hdu = hdus[chosen];
    if (!hdu) return;
    if (options.json) out.result(jsonText(hdu.cards.map(jsonCard)));
    else out.result(recordsOf(hdu.cards));
    return;
  }
  if (hdus.length === 0) return;
  if (options.json) {
    out.result(jsonText(hdus.map((hdu) => ({ hdu: hdu.index, type: hdu.type, ...(hdu.name ? { name: hdu.name } : {}), cards: hdu.cards.map(jsonCard) }))));
  } else {
    out.result(hdus.map((hdu) => `# ${describeHdu(hdu)}${dataSummary(hdu)}\n${recordsOf(hdu.cards)}`).join('\n\n'));
  }
}

/** The records as in the file, trailing blanks dropped; END is left out. */
function recordsOf(cards: readonly FitsCard[]): string {
  return cards.flatMap((card) => card.records.map((record) => record.trimEnd())).join('\n');
}

/**
 * ": 1024 x 1024 float32" for an image (": 1024 x 1024 int16, rescaled to uint16" when BZERO makes it unsigned),
 * ": 100 rows" for a table, nothing for an HDU without data.
 */
function dataSummary(hdu: FitsHdu): string {
  // A tile-compressed image (ZIMAGE = T): the image the table holds, not the table's bytes.
  const compressed = hdu.compression;
  if (compressed) return `: ${compressed.axes.join(' x ')} ${describeSamples(compressed.bitpix, hdu.cards)}, tile-compressed with ${compressed.algorithm}`;
  if (hdu.isImage) return `: ${hdu.axes.join(' x ')} ${describeSamples(hdu.bitpix, hdu.cards)}`;
  if ((hdu.type === 'BINTABLE' || hdu.type === 'TABLE') && hdu.axes.length === 2) return `: ${hdu.axes[1]} rows`;
  return '';
}
