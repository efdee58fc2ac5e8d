// Human tables in the layout of the official `mlsoapi`, so its users find their way at once; sizes of
// 0 are "unknown" and a total that includes one is marked as a lower bound.
import type { FileEntry, InstrumentSummary, ProductEntry } from '../../../src-shared/api/schemas';
import { humanFileSize, listingTotal } from '../../../src-shared/format/human-size';

const rule = (width: number): string => '-'.repeat(width);
const pad = (text: string, width: number): string => text.padEnd(width);

/** The longest text of `items`, at least `least`: a loop, since spreading a 150,000-row listing into Math.max overflows the stack. */
function widest<T>(items: readonly T[], text: (item: T) => string, least: number): number {
  let width = least;
  for (const item of items) width = Math.max(width, text(item).length);
  return width;
}

export function instrumentsTable(instruments: readonly InstrumentSummary[]): string {
  const nameWidth = widest(instruments, (i) => i.name, 44);
  const lines = [
    `${pad('ID', 8)} ${pad('Instrument name', nameWidth)} Dates available`,
    `${rule(8)} ${rule(nameWidth)} ${rule(23)}`,
    ...instruments.map(
      (i) => `${pad(i.id, 8)} ${pad(i.name, nameWidth)} ${i['start-date'].slice(0, 10)}...${i['end-date'].slice(0, 10)}`,
    ),
  ];
  return lines.join('\n');
}

/** Wraps text at word boundaries to `width` columns. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line.length > 0 ? `${line} ${word}` : word;
    }
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

export function productsTable(products: readonly ProductEntry[]): string {
  const idWidth = widest(products, (p) => p.id, 13);
  const titleWidth = widest(products, (p) => p.title, 22);
  const lines = [`${pad('ID', idWidth)} ${pad('Title', titleWidth)} Description`, `${rule(idWidth)} ${rule(titleWidth)} ${rule(55)}`];
  for (const product of products) {
    wrap(product.description, 55).forEach((part, index) => {
      const id = index === 0 ? product.id : '';
      const title = index === 0 ? product.title : '';
      lines.push(`${pad(id, idWidth)} ${pad(title, titleWidth)} ${part}`.trimEnd());
    });
  }
  return lines.join('\n');
}

/** UCoMP entries carry wave region and observing plan; their columns appear when any entry has them. */
function optionalColumn(files: readonly FileEntry[], field: string): boolean {
  return files.some((file) => file[field] !== undefined && file[field] !== null && file[field] !== '');
}

export function filesTable(files: readonly FileEntry[]): string {
  if (files.length === 0) return '';
  const showWave = optionalColumn(files, 'wave-region');
  const showPlan = optionalColumn(files, 'obs-plan');
  const planWidth = showPlan ? widest(files, (f) => String(f['obs-plan'] ?? ''), 8) : 0;
  const productWidth = widest(files, (f) => f.product, 13);
  const nameWidth = widest(files, (f) => f.filename, 8);
  const columns = (date: string, instrument: string, product: string, size: string, wave: string, plan: string, name: string): string =>
    [
      pad(date, 20),
      pad(instrument, 10),
      pad(product, productWidth),
      size.padStart(10),
      ...(showWave ? [pad(wave, 6)] : []),
      ...(showPlan ? [pad(plan, planWidth)] : []),
      name,
    ].join(' ');
  const separator = columns(rule(20), rule(10), rule(productWidth), rule(10), rule(6), rule(planWidth), rule(nameWidth));
  const lines = [columns('Date/time', 'Instrument', 'Product', 'Filesize', 'Wave', 'Obs plan', 'Filename'), separator];
  for (const file of files) {
    lines.push(
      columns(
        file['date-obs'],
        file.instrument,
        file.product,
        humanFileSize(file.filesize),
        String(file['wave-region'] ?? ''),
        String(file['obs-plan'] ?? ''),
        file.filename,
      ),
    );
  }
  const total = listingTotal(files.map((f) => f.filesize));
  const count = `${files.length} ${files.length === 1 ? 'file' : 'files'}`;
  lines.push(separator);
  lines.push(`${pad(count, 20 + 1 + 10 + 1 + productWidth)} ${total.text.padStart(10)}`);
  if (total.lowerBound) lines.push('(some sizes are unknown, so the total is a lower bound)');
  return lines.join('\n');
}
