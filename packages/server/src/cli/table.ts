// A small text-table formatter for human output: padded columns, a header, long cells cut with '…'.

export interface Column<T> {
  readonly header: string;
  readonly value: (row: T) => string | number | null | undefined;
  readonly align?: 'left' | 'right';
  /** Cells longer than this are cut and end with '…'. */
  readonly max?: number;
}

export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row), c.max)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) =>
        columns[i].align === 'right' ? v.padStart(widths[i]) : i === values.length - 1 ? v : v.padEnd(widths[i]),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n');
}

function cell(value: string | number | null | undefined, max: number | undefined): string {
  const text = value === null || value === undefined ? '-' : String(value).replace(/\s+/g, ' ');
  return max !== undefined && text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/** `key: value` lines for one record, keys aligned. */
export function formatRecord(pairs: ReadonlyArray<readonly [string, unknown]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs
    .map(
      ([k, v]) =>
        `${(`${k}:`).padEnd(width + 1)} ${v === null || v === undefined || v === '' ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v)}`,
    )
    .join('\n');
}
