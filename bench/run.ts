// `npm run bench [-- --quick] [-- --only drain,limit] [-- --profile] [-- --source]`: measures the real product on
// 127.0.0.1 and prints one JSON object per scenario, with the comparison figures measured in the same run (see
// docs/performance.md). It builds first and measures the compiled packages, as `hookline serve` runs them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { killAll, ROOT_DIR, startReceiver } from './lib/children.ts';
import { ctx, emit } from './lib/figures.ts';
import { argv, only, quick, SCENARIOS, type Scenario } from './lib/run-options.ts';
import { round } from './lib/stats.ts';
import { lines as engineLines } from './lines/engine-lines.ts';
import { lines as postgresLines } from './lines/postgres-lines.ts';
import { lines as sqliteLines } from './lines/sqlite-lines.ts';

// --source: measure the TypeScript sources (the `source` export condition) instead of the compiled dist/.
if (argv.includes('--source')) process.env.BENCH_SOURCE = '1';
else {
  // What is measured is dist/: bring it up to date with the sources first (its output to stderr; stdout is JSON lines).
  const built = spawnSync(process.execPath, [join(ROOT_DIR, 'scripts', 'build.mjs')], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) throw new Error(`the build failed (exit ${built.status}): the bench measures dist/`);
}

const scenarios = { ...sqliteLines, ...engineLines, ...postgresLines } as Record<Scenario, () => Promise<void>>;

const started = Date.now();
let failed = false;
try {
  ctx.okReceiver = await startReceiver('ok');
  ctx.receivers.push(ctx.okReceiver);
  for (const s of SCENARIOS) {
    if (!only.includes(s)) continue;
    const t = Date.now();
    try {
      await scenarios[s]();
      process.stderr.write(`bench: ${s} in ${round((Date.now() - t) / 1000, 1)} s\n`);
    } catch (err) {
      failed = true;
      emit({ scenario: s, error: (err as Error).message, met: false });
    }
  }
} finally {
  await Promise.allSettled(ctx.receivers.map((r) => r.close()));
  killAll();
}
process.stderr.write(
  `bench: ${only.join(', ')} in ${round((Date.now() - started) / 1000, 1)} s${quick ? ' (--quick)' : ''}\n`,
);
process.exit(failed ? 1 : 0);
