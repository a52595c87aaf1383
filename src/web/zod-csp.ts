/**
 * Zod without `eval` (issue #4: a strict Content-Security-Policy, `script-src` without 'unsafe-eval').
 * NOTE: zod 4 compiles object schemas with `new Function` when it can, and finds out by trying once, when
 * the first object schema is built; under the site's CSP that try is refused and reported as a violation (in
 * the console and to any report endpoint) even though zod catches it. Its `jitless` setting skips the try
 * and the compiled path (a form this size loses nothing). It must be set before the first schema is built,
 * which happens in a lazily loaded chunk the bundler orders on its own; so this module sets it where zod
 * reads it, `globalThis.__zod_globalConfig` (what `z.config()` writes; zod/v4/core/core.js), without
 * importing zod, which keeps zod off the landing bundle (decision 0020). Imported first by main.tsx.
 * tests/e2e/csp.spec.ts fails if zod ever probes again.
 */

/** The part of zod's global configuration this module sets. */
interface ZodGlobalConfig {
  jitless?: boolean;
}

const scope = globalThis as typeof globalThis & { __zod_globalConfig?: ZodGlobalConfig };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
