import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The repository's root, where `npm run admin` runs. */
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const exec = promisify(execFile);

/** How `npm run admin` ended: its exit code and what it wrote. */
export interface AdminCommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run admin -- ...args` (scripts/admin.ts under tsx, as package.json's script does) as a child process with
 * only PATH and `env` in its environment (say ADMIN_TOKEN and ADMIN_URL of a listening test app), in `cwd` (the
 * repository's root by default). Resolves with its exit code and output, whatever the code; never rejects for a
 * non-zero exit.
 */
export function runAdminCommand(args: string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<AdminCommandResult> {
  return exec(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), [path.join(REPO_ROOT, 'scripts/admin.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}
