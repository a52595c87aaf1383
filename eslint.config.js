// @ts-check
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Lint rules. The one that matters most: imports flow one way (DESIGN.md, "Layout"):
 * `web` and `server` may import `shared`; `shared` imports neither; `web` and `server` never import each other.
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'drizzle/**', '.tmp/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/shared', from: ['./src/server', './src/web'], message: 'shared runs in browser and server: it imports neither.' },
            { target: './src/web', from: './src/server', message: 'web never imports server code; share it through src/shared.' },
            { target: './src/server', from: './src/web', message: 'server never imports web code; share it through src/shared.' },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
