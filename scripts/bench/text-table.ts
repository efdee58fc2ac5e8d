// A plain fixed-width table: first column left-aligned (labels), the rest right-aligned (numbers).

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => rows.reduce((width, row) => Math.max(width, (row[column] ?? '').length), title.length));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** A number with fixed decimals, or "-" when there is none. */
export function fixed(value: number | undefined, decimals: number): string {
  return value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(decimals);
}
