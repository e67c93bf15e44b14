// Which events move money (docs/rules.md#money-events): they get the slow ladder on client errors. Configuration, not code.
import { PolicyConfigError } from './config-error.ts';
import type { MoneyRule } from './types.ts';

/** The payment hub's list. refund.failed, refund.rejected, subscription.*, kyc.* … moved no money. */
export const DEFAULT_MONEY_RULES: readonly MoneyRule[] = Object.freeze([
  Object.freeze({
    type: 'payment.status_changed',
    field: 'status',
    in: Object.freeze(['paid', 'settled', 'refunded']),
  }),
  Object.freeze({ type: 'withdrawal.status_changed', field: 'status', in: Object.freeze(['completed']) }),
  Object.freeze({ type: 'exchange.status_changed', field: 'status', in: Object.freeze(['completed']) }),
  Object.freeze({ type: 'refund.completed' }),
  Object.freeze({ type: 'refund.reversed' }),
]);

/**
 * True when some rule matches the event: same type, and (when the rule names a field) the value at that
 * dot path in `data` is one of `in`. A rule with a field and no `in` matches any present, non-null value.
 * A missing field is not money: better a fast `failed` the merchant can replay than days of retries by guess.
 */
export function isMoneyEvent(rules: readonly MoneyRule[], type: string, data: unknown): boolean {
  return rules.some((rule) => {
    if (rule.type !== type) return false;
    if (rule.field === undefined) return true;
    const value = valueAt(data, rule.field);
    if (value === undefined || value === null) return false;
    if (rule.in === undefined) return true;
    return (
      (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
      rule.in.includes(String(value))
    );
  });
}

// Own properties only: a path like `constructor` or `__proto__` must not find something the payload never had.
function valueAt(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Validate money rules from config (`[{"type":"refund.completed"}, {"type":"…","field":"status","in":["paid"]}]`). */
export function defineMoneyRules(json: unknown, path = 'moneyRules'): MoneyRule[] {
  if (!Array.isArray(json))
    throw new PolicyConfigError(path, 'must be an array of rules like {"type":"refund.completed"}');
  return json.map((raw, i): MoneyRule => {
    const at = `${path}[${i}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new PolicyConfigError(at, 'must be an object');
    const entry = raw as Record<string, unknown>;
    for (const key of Object.keys(entry)) {
      if (!['type', 'field', 'in'].includes(key))
        throw new PolicyConfigError(`${at}.${key}`, 'unknown key; expected type, field, in');
    }
    if (typeof entry.type !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(entry.type)) {
      throw new PolicyConfigError(`${at}.type`, 'must be an event type name like "payment.status_changed"');
    }
    const rule: { type: string; field?: string; in?: readonly string[] } = { type: entry.type };
    if (entry.field !== undefined) {
      if (typeof entry.field !== 'string' || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(entry.field)) {
        throw new PolicyConfigError(`${at}.field`, 'must be a dot path into data like "status" or "payment.state"');
      }
      rule.field = entry.field;
    }
    if (entry.in !== undefined) {
      if (rule.field === undefined) throw new PolicyConfigError(`${at}.in`, 'needs a field to compare');
      if (!Array.isArray(entry.in) || entry.in.length === 0 || !entry.in.every((v) => typeof v === 'string')) {
        throw new PolicyConfigError(`${at}.in`, 'must be a non-empty array of strings');
      }
      rule.in = Object.freeze([...(entry.in as string[])]);
    }
    return Object.freeze(rule);
  });
}
