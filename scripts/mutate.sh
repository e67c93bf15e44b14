#!/usr/bin/env bash
# Mutation testing (docs/mutation.md): runs StrykerJS once per module group in stryker.config.mjs, each with only the
# test files that cover it, then prints the score per module. Not part of `npm test`.
# Usage: npm run mutate [-- group...] (default: every group); MUTATE_CONCURRENCY=n overrides the 2 test runners.
# Add --survivors to also list each surviving / uncovered mutant.
set -euo pipefail
cd "$(dirname "$0")/.."
# The test processes resolve workspace packages to their sources (`--conditions=source` in stryker.config.mjs's
# nodeArgs); Stryker itself must run without it, or its tap runner plugin fails to load (tap-parser's `source` export).

all=(policy breaker signing address-guard wal-sync replay dispatch endpoints-ops pacing filters outbox)
all+=(tenant-limits svix-idempotency event-search) # issue 35 (t2)
# Issue 35: tracing, the audit log and egress.
all+=(tracing audit egress)
groups=() flags=()
for arg in "$@"; do
  case "$arg" in
    --*) flags+=("$arg") ;;
    *) groups+=("$arg") ;;
  esac
done
[ ${#groups[@]} -eq 0 ] && groups=("${all[@]}")

mkdir -p reports/mutation
start=$(date +%s)
for g in "${groups[@]}"; do
  echo "mutate: $g"
  rm -f "reports/mutation/$g.json"
  HOOKLINE_MUTATE_GROUP="$g" npx stryker run stryker.config.mjs --concurrency "${MUTATE_CONCURRENCY:-2}" \
    --logLevel info --fileLogLevel off > "reports/mutation/$g.log" 2>&1 \
    || { echo "mutate: $g failed, see reports/mutation/$g.log" >&2; tail -20 "reports/mutation/$g.log" >&2; exit 1; }
done
echo "mutate: wall time $(( $(date +%s) - start )) s"
node scripts/mutation-summary.mjs ${flags[@]+"${flags[@]}"} "${groups[@]}"
