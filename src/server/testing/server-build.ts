import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * The production server (src/server/main.ts and every module of ours it imports) as ONE plain ES module, for the tests
 * that spawn server processes (issue #19): `node <bundle>` starts on about 1.2 s of CPU where `node --import tsx
 * main.ts` takes 2-2.5 s, its loader resolving and compiling each of our files, and resolving every import of a
 * package, inside the process. Packages stay imports from node_modules; each of our modules keeps its own
 * `import.meta.url`, so the paths it derives from it (migrations, dist/web, package.json, fonts) are the ones it has
 * under tsx. Built with esbuild, which is also what tsx compiles TypeScript with (decision 0066).
 */

/** Replaces `import.meta.url` in each of our modules with that module's own file URL, as it has under tsx. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return {
        contents: source.replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

/**
 * Builds `entry` (an absolute path of a .ts module) into `<outDir>/<entry's name>-<hash of the output>.mjs` (a
 * source map inline) and resolves with that path; a file of the same content is reused. Rejects with esbuild's error
 * when the sources do not compile.
 */
export async function buildServerBundle(entry: string, outDir: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl],
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced no output for ${entry}`);
  const file = path.join(outDir, `${path.basename(entry, path.extname(entry))}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // NOTE: through a temporary file and a rename: two test runs may build at once, and none may run half a file.
    await mkdir(outDir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, code);
    await rename(temporary, file);
  }
  return file;
}
