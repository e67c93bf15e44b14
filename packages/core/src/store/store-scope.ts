// What every part's SQL function takes first: the driver (inside an audited write, that write's transaction), the
// delivery queue's lease view, and the part modules of the store (the audited write calls one of them). A part is its
// module's functions bound to one scope (bindPart), once, when the store is opened.
import type { LeaseView } from './queue/lease-view.ts';
import type { SqlDriver } from './sql-driver.ts';

export interface StoreScope<D extends SqlDriver = SqlDriver, L extends LeaseView = LeaseView> {
  readonly db: D;
  /** Every read of a delivery's status, row or count goes through it (docs/rules.md#sqlite-leases). */
  readonly leases: L;
  /** Several processes share the database (PostgreSQL): keys and endpoints are locked across them. */
  readonly capsAcrossWorkers: boolean;
  /** The store's part modules by part name, its dialect's queue among them. */
  readonly parts: Readonly<Record<string, PartModule>>;
}

/** A part's SQL functions, each taking the scope first; the module exports nothing else. */
export type PartModule = { readonly [method: string]: (scope: never, ...args: never[]) => unknown };

/** A part module's functions with the scope bound: the part as callers see it. */
export type BoundPart<M> = {
  readonly [K in keyof M]: M[K] extends (scope: never, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** The part: every function of `module` bound to `scope` (a bound function, no wrapper frame per call). */
export function bindPart<M extends PartModule>(scope: StoreScope<any, any>, module: M): BoundPart<M> {
  const part: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(module)) part[name] = (fn as (...a: unknown[]) => unknown).bind(null, scope);
  return part as BoundPart<M>;
}
