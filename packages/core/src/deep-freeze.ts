// Freezes an object and everything reachable from it: shared data (presets, defaults, config) no caller can edit for all.

/** Freezes `value` and, recursively, every object inside it; returns it. Frozen parts are left as they are. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    // Frozen before its children are visited, so a cycle ends at the object already frozen.
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
