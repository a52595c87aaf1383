import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import svgr from 'vite-plugin-svgr';

/**
 * Build of the browser app (DESIGN.md: React + Vite): the page lives in src/web and is built into
 * dist/web, which the Fastify server serves. SVGs imported with `?react` become React components
 * (the Material Symbols `eco` icon, issue #2).
 * NOTE: no `/api` proxy for `vite` dev: module URLs of src/web/api/ start with `/api/` too. The
 * whole site with its API runs from the Fastify server (`npm start`), which also sets the CSRF cookie.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react(), svgr()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The manifest (dist/web/.vite/, never served: the server ignores dot folders) tells
    // scripts/check-bundle-size.ts which chunks /donate loads.
    manifest: true,
    rolldownOptions: {
      // NOTE: src/shared builds its zod schemas at module level (`z.enum(CAUSES)`...). Calls of `z`
      // are side-effect free, so /donate, which imports only constants and plain functions from
      // those modules, ships without zod (the bundle budget, issue #5).
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
});
