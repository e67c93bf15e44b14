// The layer order of each package's src/ (CONTRIBUTING.md, "Layers") and the check that every import goes to the same
// or a lower layer; scripts/layer-order.test.ts runs it over the repository.
import type { ImportEdge } from './import-graph.ts';

/**
 * Per package, its modules (a top-level file without `.ts`, or a top-level folder) from the lowest layer to the highest.
 * A module may import modules of its own layer and of the layers before it, never of a later one. A top-level module
 * missing here fails the check: place it when you add it.
 */
export const LAYERS: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  core: [
    // Foundations: no Hookline concept, imported by everything.
    [
      'clock',
      'errors',
      'ids',
      'duration',
      'deep-freeze',
      'logger',
      'log-destination',
      'flat-log-line',
      'wake-signal',
      'group-commit',
      'secret-box',
      'db-url',
    ],
    // Rules as pure data and functions.
    // The audit log's nouns, its hash chain and redaction (pure; the store appends, operations record).
    ['policy', 'filters', 'pacing', 'audit', 'egress-routes'],
    // The nouns, the defaults the parts read, and the config kit (@hookline/core/config) over them.
    ['domain', 'event-type-name', 'defaults', 'config-kit'],
    // Leaf services over the nouns: signing, the HTTP sender, endpoint health, the receiver doctor.
    ['signing', 'http', 'health', 'doctor', 'tracing'],
    ['store'],
    ['dispatch'],
    ['outbox'],
    ['breaker', 'ingest', 'maintenance'],
    ['engine-options'],
    // Drives an engine it is handed (createHookline comes from its caller).
    ['simulation'],
    ['operations'],
    ['hookline'],
    ['index'],
  ],
  server: [
    ['http', 'durable-file', 'sqlite-owner-lock', 'config-error'],
    ['config-readers', 'config-tracing', 'config-sections', 'config-keys'],
    ['config', 'egress-config'],
    ['log-output', 'event-types', 'metrics', 'notify', 'settings-agreement', 'tracing'],
    ['runtime'],
    ['routes', 'console', 'openapi'],
    ['app'],
    ['server', 'index'],
    // The CLI starts the server through its public entry.
    ['cli'],
  ],
  receiver: [
    ['errors', 'headers', 'secret-key', 'signed-request', 'contract', 'sql-files.generated'],
    ['signature-hookline', 'signature-standard', 'dedup-store', 'log-line', 'webhook-event', 'doctor-request'],
    ['verify', 'sign', 'webhook-answer', 'event-admission'],
    ['stores'],
    ['handler-options', 'handler', 'inbox', 'ordering'],
    ['adapters'],
    ['index'],
  ],
};

/**
 * Which of our packages each package's src/ may import (its package.json dependencies; the server's CLI imports only
 * types from @hookline/client, a devDependency: its request bodies).
 */
export const PACKAGE_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  core: [],
  receiver: [],
  server: ['core', 'console', 'client'],
};

// ---- KNOWN EXCEPTIONS (temporary) -------------------------------------------------------------------------------
// Upward imports being removed in this round by other branches; delete each line when its branch lands (the check
// fails on a line that no longer matches any import, so a removed violation cannot linger here).
export const KNOWN_EXCEPTIONS: readonly string[] = [];
// ---- end of KNOWN EXCEPTIONS -------------------------------------------------------------------------------------

/** The module of a file under packages/<pkg>/src/: its first path segment, without the extension. */
export function moduleOf(pathInSrc: string): string {
  return pathInSrc.split('/')[0]!.replace(/\.tsx?$/, '');
}

export interface LayerReport {
  /** One line per offending import: file, what it imports, and why it may not. */
  violations: string[];
  /** KNOWN_EXCEPTIONS entries that no import needs any more. */
  unusedExceptions: string[];
}

/**
 * Checks `edges` of package `pkg` (files relative to the repository root, under packages/<pkg>/src/) against `layers`.
 * Type-only imports count: a type points from the module that uses it to the one that declares it, like a value.
 */
export function checkLayers(
  pkg: string,
  edges: readonly ImportEdge[],
  layers: ReadonlyArray<readonly string[]> = LAYERS[pkg] ?? [],
  exceptions: readonly string[] = KNOWN_EXCEPTIONS,
  dependencies: readonly string[] = PACKAGE_DEPENDENCIES[pkg] ?? [],
): LayerReport {
  const prefix = `packages/${pkg}/src/`;
  const rank = new Map<string, number>();
  layers.forEach((mods, i) => {
    for (const m of mods) rank.set(m, i);
  });
  const used = new Set<string>();
  const violations: string[] = [];
  for (const e of edges) {
    if (!e.from.startsWith(prefix)) continue;
    const from = moduleOf(e.from.slice(prefix.length));
    const fromRank = rank.get(from);
    if (fromRank === undefined) {
      violations.push(`${e.from}: module "${from}" has no layer in scripts/layer-order.ts`);
      continue;
    }
    const ours = /^@hookline\/([^/]+)/.exec(e.specifier);
    if (ours) {
      if (!dependencies.includes(ours[1]!))
        violations.push(`${e.from} imports ${e.specifier}: ${pkg} does not depend on @hookline/${ours[1]}`);
      continue;
    }
    if (e.to === null || !e.to.startsWith(prefix)) continue; // node:, npm packages; src/ leaving imports: testing.boundary
    const to = moduleOf(e.to.slice(prefix.length));
    const toRank = rank.get(to);
    if (toRank === undefined) {
      violations.push(`${e.to}: module "${to}" has no layer in scripts/layer-order.ts`);
      continue;
    }
    if (toRank <= fromRank) continue;
    const key = `${pkg}: ${from} → ${to}`;
    if (exceptions.includes(key)) {
      used.add(key);
      continue;
    }
    violations.push(
      `${e.from} imports ${e.specifier}${e.typeOnly ? ' (type only)' : ''}: "${from}" (layer ${fromRank + 1}) may not import "${to}" (layer ${toRank + 1})`,
    );
  }
  const unusedExceptions = exceptions.filter((x) => x.startsWith(`${pkg}: `) && !used.has(x));
  return { violations: [...new Set(violations)], unusedExceptions };
}
