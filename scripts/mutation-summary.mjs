// Prints the per-module mutation scores from Stryker's JSON reports (reports/mutation/<group>.json) as a table and
// writes the same figures to reports/mutation/summary.json.
// score = detected / (detected + survived + no coverage), detected = killed + timeout (Stryker's "total" score);
// runtime and compile errors are left out of both sides, as Stryker does.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const survivors = args.includes('--survivors');
const groups = args.filter((a) => !a.startsWith('--'));
const rows = [];
const listed = [];
for (const group of groups) {
  const path = `reports/mutation/${group}.json`;
  if (!existsSync(path)) {
    console.error(`mutation-summary: no report for ${group} (${path})`);
    process.exitCode = 1;
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const n = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, errors: 0, ignored: 0 };
    for (const m of mutants) {
      switch (m.status) {
        case 'Killed':
          n.killed++;
          break;
        case 'Timeout':
          n.timeout++;
          break;
        case 'Survived':
          n.survived++;
          listed.push({ file, m });
          break;
        case 'NoCoverage':
          n.noCoverage++;
          listed.push({ file, m });
          break;
        case 'Ignored':
          n.ignored++;
          break;
        default:
          n.errors++;
      }
    }
    const detected = n.killed + n.timeout;
    const valid = detected + n.survived + n.noCoverage;
    rows.push({ group, file, ...n, score: valid === 0 ? null : Math.round((10_000 * detected) / valid) / 100 });
  }
}

const head = ['group', 'module', 'score %', 'killed', 'timeout', 'survived', 'no cov', 'ignored', 'errors'];
const table = rows.map((r) =>
  [
    r.group,
    r.file,
    r.score === null ? 'n/a' : r.score.toFixed(2),
    r.killed,
    r.timeout,
    r.survived,
    r.noCoverage,
    r.ignored,
    r.errors,
  ].map(String),
);
const widths = head.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(head));
for (const t of table) console.log(line(t));
console.log(
  'score = (killed + timeout) / (killed + timeout + survived + no cov); ignored = `Stryker disable` comments with a reason',
);
if (survivors) {
  for (const { file, m } of listed) {
    const { line: l, column } = m.location.start;
    console.log(
      `${m.status === 'Survived' ? 'survived' : 'no cov  '} ${file}:${l}:${column} ${m.mutatorName} → ${JSON.stringify(m.replacement ?? '')}`,
    );
  }
}
writeFileSync(
  'reports/mutation/summary.json',
  `${JSON.stringify(
    { scoring: 'detected/(detected+survived+noCoverage), detected = killed+timeout', modules: rows },
    null,
    2,
  )}\n`,
);
