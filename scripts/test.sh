#!/usr/bin/env bash
# The whole test suite: services, a fresh PostgreSQL database, typecheck, every test file (node:test), each bounded.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then npm ci --no-audit --no-fund; fi
bash scripts/services.sh

db="hookline_test_$$_$(date +%s)"
if command -v psql >/dev/null && psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $db" >/dev/null 2>&1; then
  export HOOKLINE_TEST_PG_URL="postgres://postgres@127.0.0.1:5432/$db"
  trap 'psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true' EXIT
fi
export HOOKLINE_TEST_REDIS_URL="${HOOKLINE_TEST_REDIS_URL:-redis://127.0.0.1:6379}"

echo "typecheck: tsc --noEmit"
npx tsc -p tsconfig.json --noEmit

# Formatting, import order and lint over the whole tree (biome.jsonc); any finding fails the run (`npm run format` fixes most).
echo "lint: biome ci"
npx biome ci --error-on-warnings .

# Every test file, or the ones named on the command line (bash scripts/test.sh path/to/a.test.ts …).
if [ $# -gt 0 ]; then files=("$@"); else
  mapfile -t files < <(find packages bench scripts -name node_modules -prune -o \( -name '*.test.ts' -print \) | sort)
fi
# A stuck test fails the run instead of hanging it, twice over. Each test: 120 s unless it names its own `timeout`
# (and says why), put on test()/it() by scripts/per-test-timeout/ (a preload in NODE_OPTIONS below; node 20 refuses
# --test-timeout there, and that option bounds a file, not a test), so a deadlock fails naming its test within two
# minutes; HOOKLINE_TEST_PER_TEST_TIMEOUT_MS overrides the default. Each file: on Node 20, --test-timeout bounds each
# test file (the runner ends the file's process); scripts/test-reporter.mjs names the tests that were still running
# in it. The file bound must hold the slowest honest file on a loaded machine: postgres.multiprocess (20,000 events)
# takes ~95 s on two idle cores and ~430 s on two shared ones, and carries its own 900 s ceiling, which this stays
# above so that its own timeout fires first. HOOKLINE_TEST_TIMEOUT_MS overrides it. --test-force-exit ends a file
# whose tests are all done even if something it started still holds the event loop open.
timeout_ms="${HOOKLINE_TEST_TIMEOUT_MS:-960000}"
echo "running ${#files[@]} test files (each bounded by ${timeout_ms} ms)"
# The `source` export condition resolves the workspace's packages to their TypeScript sources (run through tsx), not
# to their dist/ builds; in NODE_OPTIONS so that every process a test starts (hookline, forks, threads) does the same.
# The per-test timeout's preload rides there too: the runner starts each file as a process of its own.
export NODE_OPTIONS="--conditions=source --import=$PWD/scripts/per-test-timeout/preload.mjs${NODE_OPTIONS:+ $NODE_OPTIONS}"
node --import tsx --test --test-concurrency=2 --test-timeout="$timeout_ms" --test-force-exit \
  --test-reporter=./scripts/test-reporter.mjs --test-reporter-destination=stdout "${files[@]}"
