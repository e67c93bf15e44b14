// What an operator is warned of at start when PostgreSQL's own upkeep is off (docs/scaling.md#history): nothing is
// refused — the data is safe — but with autovacuum off the space retention frees is never reused.

/** The warnings for these server settings (`SHOW autovacuum`, …); none when the upkeep runs. */
export function upkeepWarnings(settings: { autovacuum?: string | null }): string[] {
  const out: string[] = [];
  if (settings.autovacuum === 'off')
    out.push(
      'PostgreSQL runs with autovacuum = off: the space retention frees is never reused, so the history tables only grow; turn it on (docs/scaling.md#history)',
    );
  return out;
}
