import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * The production server (src/server/main.ts and every module of ours it imports) as ONE plain ES module: what
 * `npm run build` writes to dist/server/main.mjs and `npm start` runs with `node --enable-source-maps` (issue #33,
 * decision 0099), and what the tests that spawn server processes run (issue #19, decision 0067). `node <bundle>`
 * starts on about 1.2 s of CPU where `node --import tsx main.ts` takes 2-2.5 s, its loader resolving and compiling
 * each of our files, and resolving every import of a package, inside the process. Packages stay imports from
 * node_modules; each of our modules keeps its own `import.meta.url`, so the paths it derives from it (migrations,
 * dist/web, package.json, the catalogues, fonts) are the ones it has under tsx. Built with esbuild, which is also what
 * tsx compiles TypeScript with (decision 0066).
 */

/**
 * Replaces `import.meta.url` in each of our modules with that module's own file URL, as it has under tsx, written
 * relative to the bundle's own URL (`new URL('../../src/server/db/client.ts', import.meta.url).href` for a bundle in
 * dist/server): the build keeps working when the checkout is moved or copied whole after it was built.
 */
function ownImportMetaUrl(outDir: string): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(builder) {
      builder.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const fromBundle = path.relative(outDir, args.path).split(path.sep).join('/');
        return {
          contents: source.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
          loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
        };
      });
    },
  };
}

/**
 * Builds `entry` (an absolute path of a .ts module) into one ES module in `outDir` (a source map inline, so stack
 * traces under `node --enable-source-maps` name our .ts files and lines) and resolves with its path: `fileName` when
 * given (the production build's `main.mjs`), else `<entry's name>-<hash of the output>.mjs`, reused when a file of
 * that name exists (the tests' bundles). Written through a temporary file and a rename, so no process ever runs half
 * a file. Rejects with esbuild's error when the sources do not compile.
 */
export async function buildServerBundle(entry: string, outDir: string, fileName?: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    // NOTE: the oldest Node of package.json's engines, whatever Node builds it: a build runs on every supported one.
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl(outDir)],
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced no output for ${entry}`);
  const name = fileName ?? `${path.basename(entry, path.extname(entry))}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const file = path.join(outDir, name);
  if (fileName !== undefined || !existsSync(file)) {
    // NOTE: two test runs, or a start and a build, may write at once: none may run half a file.
    await mkdir(outDir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, file);
  }
  return file;
}
