// A scratch PostgreSQL database for one benchmark run, created from a base URL and dropped afterwards, so runs never
// see each other's rows. Base: HOOKLINE_BENCH_PG_URL, else HOOKLINE_TEST_PG_URL, else the local server's `postgres`.
import pg from 'pg';

export function benchPgBase(): string {
  return (
    process.env.HOOKLINE_BENCH_PG_URL ??
    process.env.HOOKLINE_TEST_PG_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

export interface ScratchDb {
  url: string;
  drop(): Promise<void>;
}

export async function scratchDatabase(prefix: string, base = benchPgBase()): Promise<ScratchDb> {
  const name = `${prefix}_${process.pid}_${Date.now() % 1e8}`;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad scratch database name ${name}`);
  const admin = new pg.Client(base);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
