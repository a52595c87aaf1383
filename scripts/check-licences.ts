import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { init, type ModuleInfos } from 'license-checker-rseidelsohn';

/**
 * `npm run check:licences` (issue #33, part 3; decision 0099; CI runs it): fails when a package that ships with the
 * site, in the server or in the browser's bundle, carries a licence that is not allowed: copyleft (GPL, LGPL, AGPL,
 * SSPL...), unknown, or guessed by the checker. What ships is the production dependency tree (dependencies and
 * optionalDependencies with theirs, not devDependencies) as npm installed it in node_modules, read offline by
 * license-checker-rseidelsohn. The allowed licences, each with a note, and the packages taken at another licence
 * than their package.json states, are in scripts/licences-allowed.json. Prints what it checked and, on failure,
 * every package refused with its licence and repository; exits 1 then.
 */

/** scripts/licences-allowed.json. */
interface AllowedLicences {
  /** Licence as a package states it (an SPDX expression) → why it is allowed. */
  licences: Record<string, string>;
  /** `name@version` → the licence it is taken as, and why. */
  packages: Record<string, { licence: string; note: string }>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const allowed = JSON.parse(await readFile(new URL('licences-allowed.json', import.meta.url), 'utf8')) as AllowedLicences;
const rootPackage = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

const packages = await new Promise<ModuleInfos>((resolve, reject) =>
  init({ start: ROOT, production: true }, (error, result) => (error ? reject(error) : resolve(result))),
);

const refused: string[] = [];
let checked = 0;
for (const [nameAtVersion, info] of Object.entries(packages)) {
  // NOTE: the site itself (MIT, LICENSE): the checker lists the private root package as UNLICENSED.
  if (nameAtVersion === `${rootPackage.name}@${rootPackage.version}`) continue;
  checked += 1;
  const stated = Array.isArray(info.licenses) ? info.licenses.join(' AND ') : (info.licenses ?? 'UNKNOWN');
  const licence = allowed.packages[nameAtVersion]?.licence ?? stated;
  if (!(licence in allowed.licences)) refused.push(`${nameAtVersion}: ${stated} (${info.repository ?? info.path ?? 'no repository'})`);
}

if (refused.length > 0) {
  console.error(
    `Licence check: ${refused.length} of the ${checked} packages that ship carry a licence not allowed by scripts/licences-allowed.json ` +
      `(copyleft, unknown, or guessed: "*"):\n  ${refused.join('\n  ')}\nReplace the package, or, for a permissive licence, add it to the file with a note.`,
  );
  process.exit(1);
}
console.log(`Licence check: the ${checked} packages that ship carry allowed licences (${Object.keys(allowed.licences).join(', ')}).`);
