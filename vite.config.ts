import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { CodeSplittingGroup, ModuleInfo } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import svgr from 'vite-plugin-svgr';
import { catalogues } from './scripts/vite-catalogues';

const projectRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The stages of the app's start (src/web/main.tsx; issue #20, decision 0070), in the order main.tsx evaluates them:
 * each stage's chunk and the module main.tsx imports for it.
 */
const START_STAGES = [
  { chunk: 'react', module: 'src/web/start/react-stage.ts' },
  { chunk: 'theme', module: 'src/web/start/theme-stage.ts' },
  { chunk: 'landing', module: 'src/web/start/site-stage.tsx' },
] as const;

/** Vite's helper that preloads a lazily loaded chunk's imports: main.tsx and the lazy screens import it. */
const PRELOAD_HELPER = '\0vite/preload-helper.js';

/**
 * Modules whose imports a stage does not follow: MUI's high-contrast theme helper, which the `@mui/material/styles`
 * barrel re-exports and the site never calls, imports the classes of a dozen components (the checkbox, the menu, the
 * slider...); followed, they would go to the theme chunk and load on /donate. What /donate does use of them arrives
 * through its own components' imports.
 */
const IMPORTS_NOT_FOLLOWED = /@mui[\\/]material[\\/]styles[\\/]enhanceHighContrast\./;

/**
 * Modules a stage's barrel imports reach but /donate never runs: MUI's `useThemeProps` and `useMediaQuery`, which only
 * the staff pages' charts call (MUI X Charts; issue #22, decision 0077). Put in a stage's chunk, they would load on
 * /donate as soon as a lazy page used them; left out, they go with the lazy page that does.
 */
const NOT_IN_STAGES = /@mui[\\/](?:material[\\/]styles[\\/]useThemeProps|system[\\/]useMediaQuery[\\/]useMediaQuery)\./;

/** The modules `root` imports statically, transitively, itself included (not through {@link IMPORTS_NOT_FOLLOWED}). */
function staticClosure(root: string, moduleInfo: (id: string) => ModuleInfo | null): Set<string> {
  const seen = new Set<string>();
  const pending = [root];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    if (!IMPORTS_NOT_FOLLOWED.test(id)) pending.push(...(moduleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * The chunks of the app's start: every module a stage of {@link START_STAGES} imports statically goes into that
 * stage's chunk, unless an earlier stage has it; Vite's preload helper into a small chunk of its own, so the entry
 * imports no stage statically; every other module (the lazily loaded screens') is chunked by rolldown as usual. One
 * chunk per stage, whatever the lazy screens share with it: left to itself, rolldown makes a common chunk for each set
 * of lazy screens that shares modules with /donate (MUI's inputs: the form, receipts and manage screens), so each new
 * screen would split /donate's code further, and every chunk costs gzip (issue #5).
 */
function startStageChunks(): CodeSplittingGroup {
  let stageOfModule: Map<string, string> | undefined;
  return {
    debugName: 'start stages',
    name: (id, context) => {
      if (id === PRELOAD_HELPER) return 'preload-helper';
      if (NOT_IN_STAGES.test(id)) return null;
      if (!stageOfModule) {
        stageOfModule = new Map();
        for (const stage of START_STAGES) {
          for (const member of staticClosure(join(projectRoot, stage.module), (module) => context.getModuleInfo(module))) {
            if (!stageOfModule.has(member)) stageOfModule.set(member, stage.chunk);
          }
        }
      }
      return stageOfModule.get(id) ?? null;
    },
    // NOTE: a stage's chunk holds its own modules only; what it imports from an earlier stage stays in that one's chunk.
    includeDependenciesRecursively: false,
  };
}

/**
 * Adds a `<link rel="modulepreload">` to index.html for every chunk the entry imports dynamically itself (the stages
 * of the start, src/web/main.tsx) and every chunk those import statically, so that the browser fetches them all at
 * once instead of one stage after another (issue #20, decision 0070). Vite itself preloads only the entry's static
 * imports. The pre-rendered /donate moves these links, with Vite's, into its after-paint loader (prerender-page.ts).
 */
function preloadStartStages(): Plugin {
  let base = '/';
  return {
    name: 'preload-start-stages',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return;
        const files = new Set<string>();
        const visit = (file: string) => {
          const imported = bundle[file];
          if (files.has(file) || imported?.type !== 'chunk') return;
          files.add(file);
          for (const next of imported.imports) visit(next);
        };
        for (const stage of chunk.dynamicImports) visit(stage);
        for (const file of [chunk.fileName, ...chunk.imports]) files.delete(file);
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * Marks React Router's module-level `React.forwardRef(...)` and `React.createContext(...)` calls pure (`@__PURE__`) and
 * drops its `X.displayName = "X"` lines (names for React's developer tools), so the bundler can drop the components
 * and contexts the site never uses (its Link, NavLink, Form, the framework mode's): React Router ships as one module,
 * so whatever of it is kept loads with /donate (issue #20: the bundle budget, decision 0070). Both calls only create an
 * object. The package's exports point at its development build, whose names are not behind a NODE_ENV check.
 */
function reactRouterPureCalls(): Plugin {
  return {
    name: 'react-router-pure-calls',
    apply: 'build',
    transform: {
      filter: { id: /node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/ },
      handler(code) {
        const pure = code.replace(/=\s*(React\d*\.(?:forwardRef|createContext)\()/g, '= /* @__PURE__ */ $1');
        return { code: pure.replace(/^\s*\w+\.displayName = "\w+";$/gm, ''), map: null };
      },
    },
  };
}

/**
 * Writes `.vite/chunk-modules.json` beside Vite's manifest: each JavaScript chunk's file and the modules with code in
 * it (paths relative to the project, `node_modules/...` for packages), so scripts/check-bundle-size.ts can tell which code
 * /donate loads (issue #20: no Stripe and no staff code on /donate).
 */
function chunkModules(): Plugin {
  return {
    name: 'chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const modulesOfChunk = Object.fromEntries(
        Object.values(bundle)
          .filter((file) => file.type === 'chunk')
          .map((chunk) => [
            chunk.fileName,
            Object.entries(chunk.modules)
              .filter(([, module]) => module.renderedLength > 0)
              .map(([id]) => (id.startsWith(projectRoot) ? id.slice(projectRoot.length) : id)),
          ]),
      );
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: JSON.stringify(modulesOfChunk, null, 1) });
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
  plugins: [react(), svgr(), catalogues(), preloadStartStages(), reactRouterPureCalls(), chunkModules()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The manifest (dist/web/.vite/, never served: the server ignores dot folders) tells
    // scripts/check-bundle-size.ts which chunks /donate loads.
    manifest: true,
    // NOTE: no polyfill: every browser the site supports has `<link rel="modulepreload">` (Baseline since 2023).
    modulePreload: { polyfill: false },
    // NOTE: Terser (two passes, ES modules' top level mangled) writes 0.4 kB less gzip on /donate than the default
    // minifier: the room that /es/donate's catalogue needed under the budget (issue #24, decision 0091).
    minify: 'terser',
    terserOptions: { module: true, ecma: 2020, compress: { passes: 2 }, format: { comments: false } },
    rolldownOptions: {
      treeshake: {
        // NOTE: src/shared builds its zod schemas at module level (`z.enum(CAUSES)`...). Calls of `z`
        // are side-effect free, so /donate, which imports only constants and plain functions from
        // those modules, ships without zod (the bundle budget, issue #5).
        manualPureFunctions: ['z'],
        // NOTE: emotion imports hoist-non-react-statics for its withTheme, which the site never uses; the package
        // has no side effects but does not say so (issue #20: the bundle budget).
        moduleSideEffects: (id) => (/node_modules[\\/]hoist-non-react-statics[\\/]/.test(id) ? false : undefined),
      },
      // NOTE: the app's start in one chunk per stage, evaluated one after the other (issue #20, decision 0070).
      output: { codeSplitting: { groups: [startStageChunks()] } },
    },
  },
});
