// Whether a `--db` value names a PostgreSQL database (a URL) rather than a SQLite file; no driver loaded to tell.

/** `postgres://` or `postgresql://`, in any case (URL schemes are case-insensitive, RFC 3986 §3.1). */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}
