// docs/deploy.md says what the code does: its environment tables match the variables the server and the command line
// read (with the config modules' keys and defaults), and its systemd units are ones systemd accepts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLIENT_ENV, resolveClientConfig } from '../src/cli/client-config.ts';
import { resolveConfig } from '../src/config.ts';
import { SERVER_ENV } from '../src/config-keys.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const doc = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8');
/** The modules that read configuration (server, readers, command line client), by path under packages/server/src. */
const CONFIG_MODULES = [
  'config.ts',
  'config-keys.ts',
  'config-sections.ts',
  'config-readers.ts',
  'cli/client-config.ts',
];
const configSource = CONFIG_MODULES.map((f) => readFileSync(join(ROOT, 'packages/server/src', f), 'utf8')).join('\n');

/** The `## Environment variables` section's tables (the server's, then the client's): rows as trimmed cells. */
function envTables(): string[][][] {
  const start = doc.indexOf('\n## Environment variables\n');
  assert.ok(start >= 0, 'docs/deploy.md has an "Environment variables" section');
  const end = doc.indexOf('\n## ', start + 1);
  const tables: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of doc.slice(start, end < 0 ? undefined : end).split('\n')) {
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    if (current === null) tables.push((current = []));
    if (/^\| `HOOKLINE_/.test(line))
      current.push(
        line
          .slice(1, -1)
          .split(' | ')
          .map((cell) => cell.trim()),
      );
  }
  return tables;
}

function unquote(cell: string): string {
  const m = /^`([^`]*)`$/.exec(cell);
  assert.ok(m, `${cell} is one code span`);
  return m[1];
}

const [serverRows = [], clientRows = [], ...otherTables] = envTables();

/** What a table row's default cell says for a resolved value. */
function assertDefault(name: string, fallback: string, value: unknown): void {
  if (value === null || value === undefined) assert.equal(fallback, 'none', `${name}: no default`);
  else
    assert.equal(
      unquote(fallback),
      typeof value === 'object' ? JSON.stringify(value) : String(value),
      `${name}: the default`,
    );
}

describe('docs/deploy.md environment variables', () => {
  it("has two tables, the server's and the client's, each row with a variable, a key, a default and what it does", () => {
    assert.equal(otherTables.length, 0);
    for (const row of [...serverRows, ...clientRows]) assert.equal(row.length, 4, row.join(' | '));
  });

  it('the server table lists exactly the variables config-keys.ts maps to server keys, and HOOKLINE_CONFIG', () => {
    const inCode = new Set([...Object.keys(SERVER_ENV), 'HOOKLINE_CONFIG']);
    const inDoc = new Set(serverRows.map((r) => unquote(r[0])));
    assert.ok(inCode.size >= 30, `found ${inCode.size} variables in config.ts`);
    assert.deepEqual(
      [...inCode].filter((v) => !inDoc.has(v)),
      [],
      'in config.ts, missing from docs/deploy.md',
    );
    assert.deepEqual(
      [...inDoc].filter((v) => !inCode.has(v)),
      [],
      'in docs/deploy.md, not read by config.ts',
    );
    assert.equal(inDoc.size, serverRows.length, 'each variable once');
  });

  it('the config modules read no HOOKLINE_* variable outside their two tables (and HOOKLINE_CONFIG)', () => {
    const mapped = new Set([...Object.keys(SERVER_ENV), ...Object.keys(CLIENT_ENV), 'HOOKLINE_CONFIG']);
    assert.deepEqual(
      [...new Set(configSource.match(/\bHOOKLINE_[A-Z0-9_]+/g))].filter((v) => !mapped.has(v)),
      [],
    );
  });

  it('each server variable names the config key config.ts maps it to and the default that key resolves to', () => {
    const defaults = resolveConfig({ env: {} }) as unknown as Record<string, unknown>;
    // smtp.* defaults apply once SMTP is configured at all.
    const smtpDefaults = resolveConfig({ env: { HOOKLINE_SMTP_HOST: 'mail.example.invalid' } })
      .smtp as unknown as Record<string, unknown>;
    for (const [variable, key, fallback] of serverRows) {
      const name = unquote(variable);
      if (key === '—') {
        assert.equal(name in SERVER_ENV, false, `${name} sets a key in config.ts`);
        continue;
      }
      assert.equal(unquote(key), SERVER_ENV[name], `${name}: the config key`);
      const [top, sub] = unquote(key).split('.');
      const value =
        sub === undefined
          ? defaults[top]
          : top !== 'smtp'
            ? (defaults[top] as Record<string, unknown>)[sub]
            : sub === 'host'
              ? defaults.smtp
              : smtpDefaults[sub];
      assertDefault(name, fallback, value);
    }
  });

  it("the client table lists exactly the client config's variables, each with its key and default", () => {
    assert.deepEqual(clientRows.map((r) => unquote(r[0])).sort(), Object.keys(CLIENT_ENV).sort());
    const defaults = resolveClientConfig({ env: {} }) as unknown as Record<string, unknown>;
    for (const [variable, key, fallback] of clientRows) {
      const name = unquote(variable);
      assert.equal(unquote(key), CLIENT_ENV[name], `${name}: the client key`);
      assertDefault(name, fallback, defaults[unquote(key)]);
    }
  });

  it('no module of the server package but the config modules reads a HOOKLINE_* variable or process.env', () => {
    const src = join(ROOT, 'packages/server/src');
    const readers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !CONFIG_MODULES.includes(f))
      .filter((f) =>
        /\benv\.HOOKLINE_|\benv\[['"]HOOKLINE_|process\.env\b/.test(
          readFileSync(join(src, f), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, ''),
        ),
      );
    assert.deepEqual(readers, []);
  });

  it('every HOOKLINE_* the document mentions is one of those', () => {
    const known = new Set([...serverRows, ...clientRows].map((r) => unquote(r[0])));
    const unknown = [...new Set(doc.match(/\bHOOKLINE_[A-Z0-9_]+/g))].filter((v) => !known.has(v));
    assert.deepEqual(unknown, []);
  });
});

/** The unit files the document shows, by name (each block follows a `<!-- systemd-unit: name, … -->` marker). */
const units = new Map(
  [...doc.matchAll(/<!-- systemd-unit: ([\w.-]+),[^>]*-->\n```ini\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]),
);

type Unit = Map<string, Array<[string, string]>>;
function parseUnit(name: string, text: string): Unit {
  const sections: Unit = new Map();
  let current: Array<[string, string]> | null = null;
  text.split('\n').forEach((line, i) => {
    if (line === '' || /^[#;]/.test(line)) return;
    assert.ok(!line.endsWith('\\'), `${name}:${i + 1}: no continuation lines`);
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      assert.ok(!sections.has(section[1]), `${name}: [${section[1]}] once`);
      sections.set(section[1], (current = []));
      return;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    assert.ok(kv && current, `${name}:${i + 1}: a key=value line inside a section: ${line}`);
    current.push([kv[1], kv[2]]);
  });
  return sections;
}
function values(unit: Unit, section: string, key: string): string[] {
  return (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
}

/** The keys systemd documents for each section (systemd.unit, systemd.service, systemd.exec, systemd.timer, systemd.kill). */
const KNOWN_KEYS: Record<string, ReadonlySet<string>> = {
  Unit: new Set(['Description', 'Documentation', 'After', 'Before', 'Wants', 'Requires', 'BindsTo', 'PartOf']),
  Service: new Set([
    'Type',
    'User',
    'Group',
    'ExecStart',
    'ExecStartPre',
    'ExecStartPost',
    'ExecStop',
    'WorkingDirectory',
    'StateDirectory',
    'StateDirectoryMode',
    'UMask',
    'Environment',
    'EnvironmentFile',
    'Restart',
    'RestartSec',
    'TimeoutStopSec',
    'KillSignal',
    'LimitNOFILE',
    'NoNewPrivileges',
    'PrivateTmp',
    'ProtectSystem',
    'ProtectHome',
    'ReadWritePaths',
    'ReadOnlyPaths',
  ]),
  Timer: new Set(['OnCalendar', 'Persistent', 'RandomizedDelaySec', 'AccuracySec', 'Unit']),
  Install: new Set(['WantedBy', 'RequiredBy', 'Alias']),
};

describe('docs/deploy.md systemd units', () => {
  it('shows the server unit, the backup service and its timer', () => {
    assert.deepEqual([...units.keys()].sort(), [
      'hookline-backup.service',
      'hookline-backup.timer',
      'hookline.service',
    ]);
  });

  it('every key is one systemd knows in its section', () => {
    for (const [name, text] of units) {
      for (const [section, entries] of parseUnit(name, text)) {
        const known = KNOWN_KEYS[section];
        assert.ok(known, `${name}: [${section}] is a section this check knows`);
        for (const [key] of entries) assert.ok(known.has(key), `${name}: ${key}= in [${section}]`);
      }
    }
  });

  it('the server unit restarts on failure, raises the descriptor limit, runs as its own user in its data directory', () => {
    const unit = parseUnit('hookline.service', units.get('hookline.service')!);
    assert.deepEqual(values(unit, 'Service', 'Restart'), ['on-failure'], 'serve exits 5 after a latched fsync failure');
    const [nofile] = values(unit, 'Service', 'LimitNOFILE');
    assert.ok(Number(nofile) >= 65536, `LimitNOFILE=${nofile}`);
    const [user] = values(unit, 'Service', 'User');
    assert.ok(user && user !== 'root', 'a dedicated user');
    assert.match(
      values(unit, 'Service', 'ExecStart')[0],
      // The production install of the Install section: the packed server under /opt/hookline/node_modules.
      /^\/\S+\/node \/opt\/hookline\/node_modules\/@hookline\/server\/bin\/hookline\.js serve$/,
    );
    assert.deepEqual(values(unit, 'Service', 'StateDirectory'), ['hookline']);
    assert.deepEqual(values(unit, 'Service', 'WorkingDirectory'), ['/var/lib/hookline']);
    // Its Environment= lines are a configuration the server accepts, with the database in the data directory.
    const env = Object.fromEntries(values(unit, 'Service', 'Environment').map((v) => v.split(/=(.*)/s).slice(0, 2)));
    const config = resolveConfig({ env });
    assert.equal(config.db, '/var/lib/hookline/hookline.db');
    assert.equal(config.dataDir, '/var/lib/hookline');
    assert.deepEqual([config.host, config.port], ['127.0.0.1', 8080]);
  });

  it('the backup service runs `hookline backup` once as the same user, from a timer', () => {
    const unit = parseUnit('hookline-backup.service', units.get('hookline-backup.service')!);
    assert.deepEqual(values(unit, 'Service', 'Type'), ['oneshot']);
    assert.deepEqual(
      values(unit, 'Service', 'User'),
      values(parseUnit('hookline.service', units.get('hookline.service')!), 'Service', 'User'),
    );
    assert.match(
      values(unit, 'Service', 'ExecStart')[0],
      /\/opt\/hookline\/node_modules\/@hookline\/server\/bin\/hookline\.js backup \/var\/backups\/hookline\//,
    );
    const timer = parseUnit('hookline-backup.timer', units.get('hookline-backup.timer')!);
    assert.equal(values(timer, 'Timer', 'OnCalendar').length, 1);
  });

  it('systemd-analyze verify accepts all three units', (t) => {
    if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
      // Under CI the check must run (scripts/services.sh installs systemd there when the tool is missing).
      assert.notEqual(
        process.env.CI,
        'true',
        'CI=true and systemd-analyze is not installed: the units cannot be verified',
      );
      t.skip('systemd-analyze is not installed here; only the key check above ran');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'hookline-units-'));
    try {
      for (const [name, text] of units) {
        // verify checks that each Exec binary exists: the doc's /usr/bin/node is where packages put it; elsewhere, ours.
        let file = text;
        if (!existsSync('/usr/bin/node')) {
          t.diagnostic(`no /usr/bin/node on this machine: verifying with ${process.execPath} in its place`);
          file = text.replaceAll('/usr/bin/node', process.execPath);
        }
        writeFileSync(join(dir, name), file);
      }
      const r = spawnSync('systemd-analyze', ['verify', ...[...units.keys()].map((n) => join(dir, n))], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      // Warnings (an unknown key, a bad value) do not change the exit status: any line about our units fails.
      const about = `${r.stdout}\n${r.stderr}`
        .split('\n')
        .filter((line) => [...units.keys()].some((n) => line.includes(n)));
      assert.deepEqual(about, [], 'systemd-analyze verify has something to say');
      assert.equal(r.status, 0, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
