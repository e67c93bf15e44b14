#!/usr/bin/env node
// The `hookline` executable: registers tsx (the sources are TypeScript, no build step), then runs the CLI.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`hookline … | head`) closes the pipe: that ends the output, it is not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2), process.env);
process.exitCode = code;
// Whatever is still open (an idle keep-alive socket) must not hold the exit back.
setTimeout(() => process.exit(code), 1000).unref();
