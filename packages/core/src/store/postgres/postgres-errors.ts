// Which PostgreSQL errors a transaction survives: a lost connection (retried on a fresh one when safe) and a deadlock
// or serialization failure (the transaction did nothing and runs again).

/** Errors after which the connection is unusable; the work is retried on a fresh one when that is safe. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  const code = e.code ?? '';
  // 57P01 admin_shutdown (pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now, class 08 connection.
  if (code === '57P01' || code === '57P02' || code === '57P03' || code.startsWith('08')) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN'].includes(code)) return true;
  return /Connection terminated|connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed/i.test(
    e.message ?? '',
  );
}

/** Deadlock or serialization failure: the transaction did nothing and can run again. */
export function isConflict(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}
