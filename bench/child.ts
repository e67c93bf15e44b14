// Entry of a measuring child process: `child.ts <scenario module> <function> <json args>` prints one JSON line.
import { join } from 'node:path';
import { BENCH_DIR } from './lib/children.ts';

const [module, fn, raw] = process.argv.slice(2);
try {
  const mod = await import(join(BENCH_DIR, 'scenarios', module));
  const out = await mod[fn](JSON.parse(raw ?? '{}'));
  // A pipe is written asynchronously: exit only once the (possibly large) line is flushed.
  process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: (err as Error).stack ?? String(err) })}\n`, () => process.exit(1));
}
