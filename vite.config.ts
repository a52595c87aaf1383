import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import svgr from 'vite-plugin-svgr';

/** V8's explicit compile hint (Chrome 136+; any other engine reads a comment). It must be a file's first line. */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Starts every JavaScript chunk of the build with {@link COMPILE_HINT}, so V8 compiles all its functions
 * eagerly, on a background thread while the chunk streams in, instead of lazily on the main thread when
 * each is first called. Nearly all of each chunk runs as its screen starts (React, MUI, the screen), and on
 * Lighthouse's throttled phone this cut the main thread's work on /donate's modules by about a third
 * (issue #5, decision 0022). A plugin, not `output.banner`: the minifier drops comments, and Vite writes its
 * preload map at the top of the entry chunk after rolldown's `postBanner`.
 */
function v8CompileHints(): Plugin {
  return {
    name: 'v8-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      // NOTE: last of all plugins' generateBundle hooks, after Vite writes its preload map at the top of the entry.
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk' && !file.code.startsWith(COMPILE_HINT)) file.code = `${COMPILE_HINT}\n${file.code}`;
        }
      },
    },
  };
}

/**
 * Build of the browser app (DESIGN.md: React + Vite): the page lives in src/web and is built into
 * dist/web, which the Fastify server serves. SVGs imported with `?react` become React components
 * (the Material Symbols `eco` icon, issue #2).
 * NOTE: no `/api` proxy for `vite` dev: module URLs of src/web/api/ start with `/api/` too. The
 * whole site with its API runs from the Fastify server (`npm start`), which also sets the CSRF cookie.
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react(), svgr(), v8CompileHints()],
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
      // NOTE: every module /donate loads at start ('$initial': the entry and its static imports) in ONE chunk. Left to
      // itself, rolldown makes a common chunk for each set of lazy screens that shares modules with /donate (MUI's
      // inputs: the form, receipts and manage screens), so each new screen could split /donate's code further; four
      // chunks cost 1.6 kB gzip more than the same code in one, over the 150 kB budget (issue #5).
      output: { codeSplitting: { groups: [{ name: 'landing', tags: ['$initial'] }] } },
    },
  },
});
