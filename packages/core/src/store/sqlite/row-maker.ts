// Rows as objects, made cheaply: better-sqlite3 builds each row object one property at a time (a slow path in V8
// when a row has ~30 columns), while an object literal of fixed keys gets its shape at once. A statement that returns
// rows is run in raw mode (arrays) and each row is made into an object by a function compiled once per statement from
// its column names: the same keys in the same order, a later column of the same name winning as before. A claim's
// 500 rows read in about half the time (docs/performance.md#row-maker).

export type RowMaker = (row: readonly unknown[]) => Record<string, unknown>;

/** The maker for a statement's columns, in order. Column names come from our own SQL files, quoted as JSON strings. */
export function rowMaker(columns: readonly string[]): RowMaker {
  // `__proto__` as a literal's key would set the prototype, not a property; no statement of ours names one.
  if (columns.includes('__proto__')) throw new Error('a column named __proto__ cannot be made into a row object');
  const fields = columns.map((c, i) => `${JSON.stringify(c)}: r[${i}]`).join(', ');
  // Compiled from our statements' column names only, each quoted as a JSON string literal.
  return new Function('r', `return { ${fields} };`) as RowMaker;
}
