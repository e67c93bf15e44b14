// The import graph of the packages' runtime sources (src/ without tests), read from the files' import lines, for the layer test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import: the importing file, what it names, and whether only types cross (`import type` / `export type`). */
export interface ImportEdge {
  from: string;
  specifier: string;
  /** The imported file relative to the root, when the specifier is relative and resolves to a file. */
  to: string | null;
  typeOnly: boolean;
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`; the `type` keyword right after
// import/export marks a type-only edge. Comments and strings in code never start a line with `import`/`export`
// in this repository's formatting (Biome), so reading statements from line starts is enough.
const STATIC = /^(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gms;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The import specifiers of one module's text. */
export function importsOf(text: string): Array<{ specifier: string; typeOnly: boolean }> {
  const out: Array<{ specifier: string; typeOnly: boolean }> = [];
  for (const m of text.matchAll(STATIC)) out.push({ specifier: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(DYNAMIC)) out.push({ specifier: m[1]!, typeOnly: false });
  return out;
}

/** Runtime source files under `dir` (relative to `root`): .ts/.tsx, not tests. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
        out.push(relative(root, p));
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return out;
}

/** Every import of the given files (paths relative to `root`), relative ones resolved to files. */
export function importGraph(root: string, files: string[], read = (f: string) => readFileSync(join(root, f), 'utf8')) {
  const edges: ImportEdge[] = [];
  const known = new Set(files);
  for (const from of files)
    for (const { specifier, typeOnly } of importsOf(read(from))) {
      let to: string | null = null;
      if (specifier.startsWith('.')) {
        const target = relative(root, resolve(root, dirname(from), specifier));
        to = [target, `${target}.ts`, `${target}/index.ts`].find((t) => known.has(t)) ?? target;
      }
      edges.push({ from, specifier, to, typeOnly });
    }
  return edges;
}
