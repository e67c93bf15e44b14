// Small formatting helpers shared by the pages.

/** 1234 → "1.2 s", 90_000 → "1 min 30 s", 7_200_000 → "2 h"; null → "—". */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${unit}`);
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

export const seconds = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '—' : `${Math.round(ms / 1000)} s`;
