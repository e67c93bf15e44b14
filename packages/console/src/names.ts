// How the console names things people made: an endpoint by its description, else its URL (never a bare id); a
// breaker by what it guards.

/** An endpoint's name: its description, else its URL. */
export const endpointName = (e: { description: string; url: string }) => e.description || e.url;

/** A breaker's scope key (`endpoint:<id>`, `tenant:<id>`) as words, with the endpoint's name where it is known. */
export function breakerName(scopeKey: string, names: ReadonlyMap<string, string>): string {
  const [scope, id = ''] = scopeKey.split(/:(.*)/s);
  if (scope === 'endpoint') return `${names.get(id) ?? id}'s breaker`;
  if (scope === 'tenant') return "the tenant's breaker";
  return `breaker ${scopeKey}`;
}

/** "oldest due 12 s ago", or "nothing due" when no pending delivery is past its time. */
export function oldestDue(ageMs: number | null): string {
  return ageMs === null ? 'nothing due' : `oldest due ${Math.round(ageMs / 1000)} s ago`;
}

/**
 * A delivery's ladder named with its policy: "strict's fast ladder: 1 attempts", from the policy's one-line
 * description (GET /v1/policies); the bare "fast ladder of <policy>" when the description does not list it.
 */
export function ladderName(
  policy: string | null,
  ladder: string,
  policies: ReadonlyArray<{ name: string; description: string }>,
): string {
  if (!policy) return `${ladder} ladder`;
  const part = policies
    .find((p) => p.name === policy)
    ?.description.split('; ')
    .find((x) => x.startsWith(`${ladder} ladder: `));
  return `the ${policy} policy's ${ladder} ladder${part ? ` (${part.slice(`${ladder} ladder: `.length)})` : ''}`;
}
