// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import lingui from 'eslint-plugin-lingui';
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
/**
 * The donor journey's screens, shared components and e-mails (issue #24): their texts come from the catalogues.
 * The staff back office and the operator's tools stay English and are not listed.
 */
const DONOR_FACING_FILES = [
  'src/web/donate/**/*.{ts,tsx}',
  'src/web/components/**/*.{ts,tsx}',
  'src/web/content/**/*.ts',
  'src/server/receipts/**/*.{ts,tsx}',
  'src/server/recurring/**/*email*.tsx',
  'src/server/recurring/compose.tsx',
  'src/server/recurring/plan-view.ts',
  'src/server/tributes/**/*.tsx',
];

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
  // The plain JavaScript that runs before a start without compiling anything (scripts/build.mjs, issue #33).
  { files: ['**/*.mjs'], languageOptions: { globals: globals.node } },
  forbidImports('src/shared/**', ['server', 'web'], 'shared runs in browser and server: it imports neither.'),
  forbidImports('src/web/**', ['server'], 'web never imports server code; share it through src/shared.'),
  forbidImports('src/server/**', ['web'], 'server never imports web code; share it through src/shared.'),
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Issue #24: Lingui's extractor (npm run i18n:extract, and the catalogues' test) finds a message only in a call
    // `i18n._('id')`; `serverI18n(locale)._('id')` would be dropped from the catalogues by the next extraction.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='_']:not([callee.object.name='i18n'])",
          message: "Call messages as i18n._('id') (an instance named i18n): Lingui's extractor sees no other form.",
        },
      ],
    },
  },
  {
    // Issue #24: every donor-facing text comes from the catalogues (src/locales). A string in JSX, or in a prop or
    // variable that reads as text, fails here; ids, class names, URLs, CSS and code-like values do not.
    files: DONOR_FACING_FILES,
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { lingui },
    rules: {
      'lingui/no-unlocalized-strings': [
        'error',
        {
          ignore: ['^Facebook$', '^(?![A-Z])\\S+$', '^[A-Z0-9_-]+$', '^[^A-Za-z]*$'],
          ignoreNames: [
            { regex: { pattern: '^(?:className|sx|variant|color|component|size|type|name|id|key|role|href|to|src|rel|target|align|edge|direction|spacing|justifyContent|alignItems|autoComplete|inputMode|method|position|display|fontWeight|fontSize|padding|margin|width|height|testId|data-.*|aria-(?!label|description).*|path|lang|hrefLang|dir|textAlign|orientation|fontFamily|boxShadow|border.*|background.*|transition|overflow|whiteSpace|gap|flex.*|grid.*|min.*|max.*|top|left|right|bottom|zIndex|event|mode|slot|format|currency|style|unit|pattern|placement|anchor.*|transform.*|origin|level|tabIndex|enterKeyHint|capture|cursor|clip|summary)$' } },
          ],
          ignoreFunctions: ['Error', 'TypeError', 'RangeError', 'console.*', 'i18n._', '*.startsWith', '*.endsWith', '*.includes', '*.split', '*.join', '*.replace', '*.replaceAll', '*.getItem', '*.setItem', '*.removeItem', 'document.*', 'useMediaQuery', 'styled', 'fetch', 'navigate', 'new URL', 'URL', 'URLSearchParams', '*.get', '*.set', '*.has', '*.append', 'Intl.*', 'z.*', '*.addEventListener', '*.removeEventListener', 'querySelector', '*.querySelector', '*.querySelectorAll', '*.getAttribute', '*.setAttribute', '*.hasAttribute', '*.removeAttribute', 'localizedPath', 'require', 'import', '*.info', '*.warn', '*.error', 'doc.*', '*.header', 'PermanentComposeError'],
        },
      ],
    },
  },
);
