// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Forbids files matching `files` to import from the sibling layers named in `layers` (`../server/x`,
 * `../../web/y`), with `message` as the reason. Built on ESLint's own `no-restricted-imports`.
 */
function forbidImports(files, layers, message) {
  const group = layers.flatMap((layer) => [`../${layer}`, `../${layer}/**`, `../../${layer}`, `../../${layer}/**`, `../../../${layer}/**`, `**/src/${layer}/**`]);
  return { files: [files], rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] } };
}

/**
 * Lint rules. The one that matters most: imports flow one way (DESIGN.md, "Layout"):
 * `web` and `server` may import `shared`; `shared` imports neither; `web` and `server` never import each other.
 * What ESLint cannot see one file at a time (no file cycle in src/, no cycle between the folders of src/server) is
 * dependency-cruiser's (.dependency-cruiser.js), which `npm run lint` runs after ESLint.
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'drizzle/**', '.tmp/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  forbidImports('src/shared/**', ['server', 'web'], 'shared runs in browser and server: it imports neither.'),
  forbidImports('src/web/**', ['server'], 'web never imports server code; share it through src/shared.'),
  forbidImports('src/server/**', ['web'], 'server never imports web code; share it through src/shared.'),
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
