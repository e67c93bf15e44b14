#!/usr/bin/env node
// The `hookline` executable: runs the CLI compiled to dist/ (no TypeScript loader at run time). Under the `source`
// export condition (development and tests: node --conditions=source) it runs the TypeScript sources through tsx.
// A reader that stops early (`hookline … | head`) closes the pipe: that ends the output, it is not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
const cli = import.meta.resolve('#cli');
if (cli.endsWith('.ts')) (await import('tsx/esm/api')).register();
const { main } = await import(cli);
const code = await main(process.argv.slice(2), process.env);
process.exitCode = code;
// Whatever is still open (an idle keep-alive socket) must not hold the exit back.
setTimeout(() => process.exit(code), 1000).unref();
