// What every result line records about where it ran: CPUs, memory, OS, and the versions of what was measured.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT_DIR } from './children.ts';

function pkgVersion(name: string): string | null {
  try {
    return JSON.parse(readFileSync(join(ROOT_DIR, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

function cmdVersion(cmd: string, args: string[], re: RegExp): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).match(re)?.[1] ?? null;
  } catch {
    return null;
  }
}

let cached: { machine: object; versions: object } | null = null;

export function environment(): { machine: object; versions: object } {
  if (cached) return cached;
  const c = cpus();
  cached = {
    machine: {
      cpus: c.length,
      cpu_model: c[0]?.model ?? 'unknown',
      mem_gb: Math.round(totalmem() / 2 ** 30),
      os: `${platform()} ${release()}`,
    },
    versions: {
      node: process.versions.node,
      hookline: pkgVersion('@hookline/core'),
      sqlite: pkgVersion('better-sqlite3') && `better-sqlite3@${pkgVersion('better-sqlite3')}`,
      undici: pkgVersion('undici'),
      bullmq: pkgVersion('bullmq'),
      ioredis: pkgVersion('ioredis'),
      redis: cmdVersion('redis-server', ['--version'], /v=(\S+)/),
      fastify: pkgVersion('fastify'),
      pg: pkgVersion('pg'),
    },
  };
  return cached;
}
