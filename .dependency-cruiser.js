// @ts-check

/**
 * Import rules that ESLint cannot see one file at a time, checked by dependency-cruiser in `npm run lint`
 * (DESIGN.md, "Layout": "no folder of src/server imports one that imports it back, and no file cycle anywhere";
 * docs/decisions/0075-the-ledger-is-its-own-room.md). The one-way rule between shared, server and web stays in
 * eslint.config.js. Type-only imports count: a cycle over a type is still a cycle for whoever reads the code.
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-file-cycle',
      comment: 'A file of src/ imports, directly or through others, a file that imports it back. Move what both need into a third file.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle-in-server',
      comment:
        'A folder of src/server imports, directly or through other folders, a folder that imports it back. Imports run one way, ' +
        'down to ledger/, http/ and platform/: let the caller compose, or pass what the lower folder must call as a parameter.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/server/[^/]+$' },
      to: { path: '^src/server/[^/]+$', circular: true },
    },
    {
      name: 'staff-capabilities-stand-apart',
      comment:
        'A staff capability (src/server/staff/<capability>/: donations, plans, donors, mail, dashboard, campaigns...) imports ' +
        "another capability's files. What two capabilities share moves down into staff/shared/ (issue #36, part 4; " +
        'docs/decisions/0109-one-staff-room.md).',
      severity: 'error',
      from: { path: '^src/server/staff/([^/]+)/', pathNot: '^src/server/staff/(identity|shared)/' },
      to: { path: '^src/server/staff/[^/]+/', pathNot: ['^src/server/staff/$1/', '^src/server/staff/(identity|shared)/'] },
    },
    {
      name: 'staff-capabilities-use-only-the-guard-of-identity',
      comment:
        "A staff capability imports identity's internals: it may use the guard (guard.ts), the audit record " +
        '(audit-record.ts) and the staff error answers (errors.ts) only; sign-in, sessions, passkeys and the team stay inside identity/.',
      severity: 'error',
      from: { path: '^src/server/staff/[^/]+/', pathNot: '^src/server/staff/identity/' },
      to: { path: '^src/server/staff/identity/', pathNot: '^src/server/staff/identity/(guard|audit-record|errors)\\.ts$' },
    },
    {
      name: 'staff-shared-and-identity-below-the-capabilities',
      comment: 'staff/identity/ and staff/shared/ are below the capabilities: they never import one (the capabilities import them).',
      severity: 'error',
      from: { path: '^src/server/staff/(identity|shared)/' },
      to: { path: '^src/server/staff/[^/]+/', pathNot: '^src/server/staff/(identity|shared)/' },
    },
    {
      name: 'staff-pages-stand-apart',
      comment:
        "A staff page's folder (src/web/staff/<capability>/) imports another capability's files. What two share moves down " +
        'into components/ (or api/ for the API clients); identity/ (sign-in, session, layout, team, audit) is below them all (decision 0109).',
      severity: 'error',
      from: { path: '^src/web/staff/([^/]+)/', pathNot: '^src/web/staff/(identity|components|api)/' },
      to: { path: '^src/web/staff/[^/]+/', pathNot: ['^src/web/staff/$1/', '^src/web/staff/(identity|components|api)/'] },
    },
    {
      name: 'staff-page-foundations-below-the-capabilities',
      comment: 'src/web/staff/identity/, components/ and api/ are what the capabilities stand on: they never import a capability folder.',
      severity: 'error',
      from: { path: '^src/web/staff/(identity|components|api)/' },
      to: { path: '^src/web/staff/[^/]+/', pathNot: '^src/web/staff/(identity|components|api)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // NOTE: tests may reach across folders to set up and check what they test; nothing imports a test file back.
    exclude: { path: '\\.test\\.tsx?$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
