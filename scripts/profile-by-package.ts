import { readFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * `tsx scripts/profile-by-package.ts <file.cpuprofile> [top]` (issue #39): sums a V8 CPU profile (`node --cpu-prof`) by
 * package, from each node's `callFrame.url`: the npm package under node_modules (scoped ones whole), `ours:<file>`
 * for src/server/<file> (through the inline source map of dist/server/main.mjs, node:module's SourceMap), `node:`
 * for Node's own modules, and V8's `(garbage collector)`, `(program)`, `(idle)`. Prints self time (samples where the
 * package's code ran) and total time (samples with the package anywhere on the stack, counted once per sample), in
 * ms and as a share of the busy time (all but idle), the `top` largest (default 25), then the functions with the most
 * total time (of the packages PROFILE_PACKAGES lists, comma-separated prefixes, when set) and with the most self time.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package a script URL belongs to. */
export function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  const ours = /(?:^|\/)src\/((?:server|shared)\/.+)$/.exec(url);
  if (ours) return `ours:${ours[1]}`;
  if (url.includes('/dist/server/')) return 'ours (bundle)';
  return url;
}

/** The source maps of bundles, by URL (undefined: none inline). */
const sourceMaps = new Map<string, SourceMap | undefined>();

/** The inline source map of the bundle at `url`, read once. */
async function sourceMapOf(url: string): Promise<SourceMap | undefined> {
  if (!sourceMaps.has(url)) {
    const text = await readFile(fileURLToPath(url), 'utf8').catch(() => '');
    const data = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(text)?.[1];
    sourceMaps.set(url, data ? new SourceMap(JSON.parse(Buffer.from(data, 'base64').toString('utf8'))) : undefined);
  }
  return sourceMaps.get(url);
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('Usage: tsx scripts/profile-by-package.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
// Frames of the bundle get the URL and line of their source.
for (const node of profile.nodes) {
  const { url, lineNumber, columnNumber } = node.callFrame;
  if (!url.endsWith('/dist/server/main.mjs')) continue;
  const entry = (await sourceMapOf(url))?.findEntry(lineNumber, columnNumber);
  if (entry && 'originalSource' in entry && entry.originalSource) {
    node.callFrame = { ...node.callFrame, url: entry.originalSource, lineNumber: entry.originalLine };
  }
}
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const self = new Map<string, number>();
const total = new Map<string, number>();
const selfFunctions = new Map<string, number>();
const totalFunctions = new Map<string, number>();
let busyUs = 0;
let allUs = 0;
profile.samples.forEach((id, index) => {
  const us = profile.timeDeltas[index + 1] ?? profile.timeDeltas[index] ?? 0;
  allUs += us;
  const node = byId.get(id);
  if (!node) return;
  const leaf = packageOf(node.callFrame.url, node.callFrame.functionName);
  if (leaf !== '(idle)') busyUs += us;
  self.set(leaf, (self.get(leaf) ?? 0) + us);
  const fn = `${node.callFrame.functionName || '(anonymous)'} ${leaf}:${node.callFrame.lineNumber + 1}`;
  selfFunctions.set(fn, (selfFunctions.get(fn) ?? 0) + us);
  const seen = new Set<string>();
  const seenFunctions = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at);
    if (!frame) break;
    const name = packageOf(frame.callFrame.url, frame.callFrame.functionName);
    if (name === '(root)') continue;
    seen.add(name);
    seenFunctions.add(`${frame.callFrame.functionName || '(anonymous)'} ${name}:${frame.callFrame.lineNumber + 1}`);
  }
  for (const name of seen) total.set(name, (total.get(name) ?? 0) + us);
  for (const name of seenFunctions) totalFunctions.set(name, (totalFunctions.get(name) ?? 0) + us);
});

const ms = (us: number) => (us / 1000).toFixed(0).padStart(8);
const share = (us: number) => `${((us / busyUs) * 100).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(allUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s busy (not idle)\n`);
console.log(`${'package'.padEnd(40)} ${'self ms'.padStart(8)} ${'self'.padStart(6)} ${'total ms'.padStart(8)} ${'total'.padStart(6)}`);
const rows = [...new Set([...self.keys(), ...total.keys()])].filter((name) => name !== '(idle)');
for (const name of rows.sort((a, b) => (self.get(b) ?? 0) - (self.get(a) ?? 0)).slice(0, top)) {
  console.log(`${name.padEnd(40)} ${ms(self.get(name) ?? 0)} ${share(self.get(name) ?? 0)} ${ms(total.get(name) ?? 0)} ${share(total.get(name) ?? 0)}`);
}
console.log('\nBy total time:');
for (const name of rows.sort((a, b) => (total.get(b) ?? 0) - (total.get(a) ?? 0)).slice(0, top)) {
  console.log(`${name.padEnd(40)} ${ms(total.get(name) ?? 0)} ${share(total.get(name) ?? 0)}`);
}
const only = process.env.PROFILE_PACKAGES?.split(',');
console.log(`\nTop total-time functions${only ? ` of ${only.join(', ')}` : ''}:`);
for (const [name, us] of [...totalFunctions]
  .filter(([name]) => !only || only.some((prefix) => name.split(' ').at(-1)?.startsWith(prefix)))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top)) {
  console.log(`${ms(us)} ${share(us)}  ${name}`);
}
console.log('\nTop self-time functions:');
for (const [name, us] of [...selfFunctions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${ms(us)} ${share(us)}  ${name}`);
}
