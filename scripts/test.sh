#!/usr/bin/env bash
# The whole test suite: services, a fresh PostgreSQL database, typecheck, every test file (node:test).
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

mapfile -t files < <(find packages bench -name node_modules -prune -o \( -name '*.test.ts' -print \) | sort)
echo "running ${#files[@]} test files"
node --import tsx --test --test-concurrency=2 --test-reporter=spec "${files[@]}"
