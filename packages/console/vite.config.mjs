// The console's build (React + Vite): index.html + src/ → dist/, served by `hookline serve` at /console with a strict
// CSP (script-src 'self', style-src 'self'): no inline scripts or styles, no CDN, nothing fetched from elsewhere.
// @hookline/client is bundled from its TypeScript sources (the `source` condition), so it needs no build first.
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Inlined assets would be data: URLs; keep every file a file the server serves from 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
