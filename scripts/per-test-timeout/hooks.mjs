// Module resolution hook for the per-test timeout (preload.mjs): `node:test` resolves to node-test.mjs, except for
// node-test.mjs itself, which wraps the real one.
const wrapper = new URL('./node-test.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if ((specifier === 'node:test' || specifier === 'test') && context.parentURL !== wrapper)
    return { url: wrapper, shortCircuit: true };
  return next(specifier, context);
}
