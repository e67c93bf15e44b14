// Turns a statement with `:name` parameters into PostgreSQL's `$n` form once, at load time.

export interface PositionalStatement {
  text: string;
  /** names[i] is the parameter bound to `$<i+1>`. */
  names: string[];
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;

/**
 * `:name` becomes `$n` (one number per distinct name). Left alone: `::type` casts, string literals ('it''s :x'),
 * quoted identifiers ("a:b"), dollar-quoted bodies ($$ … $$, $tag$ … $tag$), `--` and block comments.
 */
export function toPositional(sql: string): PositionalStatement {
  const names: string[] = [];
  const index = new Map<string, number>();
  let out = '';
  let i = 0;
  const n = sql.length;
  const copyUntil = (end: number) => {
    out += sql.slice(i, end);
    i = end;
  };
  while (i < n) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const eol = sql.indexOf('\n', i);
      copyUntil(eol === -1 ? n : eol);
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      copyUntil(end === -1 ? n : end + 2);
    } else if (c === "'" || c === '"') {
      // '' (or "") inside the literal is an escaped quote: scanning on to the next quote handles it.
      let j = i + 1;
      for (;;) {
        const q = sql.indexOf(c, j);
        if (q === -1) {
          j = n;
          break;
        }
        if (sql[q + 1] === c) {
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      copyUntil(j);
    } else if (c === '$' && (next === '$' || (next !== undefined && IDENT_START.test(next)))) {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (!m) {
        copyUntil(i + 1);
        continue;
      }
      const tag = m[0];
      const end = sql.indexOf(tag, i + tag.length);
      copyUntil(end === -1 ? n : end + tag.length);
    } else if (c === ':' && next === ':') {
      copyUntil(i + 2);
    } else if (c === ':' && next !== undefined && IDENT_START.test(next) && sql[i - 1] !== ':') {
      let j = i + 1;
      while (j < n && IDENT_PART.test(sql[j])) j++;
      const name = sql.slice(i + 1, j);
      let k = index.get(name);
      if (k === undefined) {
        names.push(name);
        k = names.length;
        index.set(name, k);
      }
      out += `$${k}`;
      i = j;
    } else {
      copyUntil(i + 1);
    }
  }
  return { text: out, names };
}
