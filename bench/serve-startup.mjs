// Start-up time and memory of `hookline serve`: the compiled dist/ (as users and `npm start` run it) against the
// TypeScript sources through tsx (`--conditions=source`, how it ran before the build step). Each run starts a fresh
// server on a new SQLite file and times spawn → "listening" line; RSS is the process's VmRSS (all threads) 1 s after.
// Prints one JSON line with the median of each. Usage: node bench/serve-startup.mjs [--runs 5]  (run npm run build first)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../packages/server/bin/hookline.js', import.meta.url));
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('HOOKLINE_') && k !== 'NODE_OPTIONS'),
);

async function once(flags) {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-startup-'));
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [...flags, BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--db', join(dir, 'h.db')],
    { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const ms = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no "listening" within 60 s')), 60_000);
      let out = '';
      const onData = (c) => {
        out += c;
        if (/hookline listening/.test(out)) {
          clearTimeout(timer);
          resolve(Number(process.hrtime.bigint() - started) / 1e6);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    await sleep(1000);
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]);
    return { ms, rssMb: rssKb / 1024 };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = { bench: 'serve-startup', node: process.version, runs };
for (const [mode, flags] of [
  ['compiled', []],
  ['tsx', ['--conditions=source']],
]) {
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await once(flags));
  result[mode] = {
    startupMsMedian: Math.round(median(samples.map((s) => s.ms))),
    rssMbMedian: Math.round(median(samples.map((s) => s.rssMb))),
    samples,
  };
}
console.log(JSON.stringify(result));
