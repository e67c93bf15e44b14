// Builds the OpenAPI document from a throwaway app, and (run directly: `npm run openapi -w @hookline/server`) writes
// packages/server/openapi.json. A script, not src/: it builds the whole app, which nothing in src/ may import.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@hookline/core';
import { buildApp } from '../src/app.ts';
import { resolveConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';

export const OPENAPI_PATH = fileURLToPath(new URL('../openapi.json', import.meta.url));

/** The document's text exactly as committed: two-space JSON and a final newline. */
export async function generateOpenApi(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-openapi-'));
  try {
    const config = resolveConfig({
      env: {},
      argv: { db: join(dir, 'openapi.db'), dataDir: dir, adminToken: 'openapi-generation-token' },
    });
    const runtime = await openRuntime(config, { logger: silentLogger });
    try {
      const app = await buildApp(runtime);
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      await app.close();
      return `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_PATH, await generateOpenApi());
  process.stdout.write(`wrote ${OPENAPI_PATH}\n`);
}
