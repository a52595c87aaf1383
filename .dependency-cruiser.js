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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // NOTE: tests may reach across folders to set up and check what they test; nothing imports a test file back.
    exclude: { path: '\\.test\\.tsx?$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
