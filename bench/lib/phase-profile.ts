// Profiles only the timed phase of a scenario (not its setup), with the inspector's sampling profiler; the file
// opens in Chrome DevTools or speedscope like any `--cpu-prof` output.

import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

export async function startPhaseProfile(dir: string | undefined, name: string): Promise<() => Promise<string | null>> {
  if (!dir) return async () => null;
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = join(dir, `${name}-${process.pid}-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
}
