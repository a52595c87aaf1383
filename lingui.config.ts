import { formatter } from '@lingui/format-json';
import { defineConfig } from '@lingui/cli';
import { LOCALES, SOURCE_LOCALE } from './src/shared/i18n/locales';

/**
 * Lingui's configuration (issue #24; https://lingui.dev/ref/conf): one catalogue per language in src/locales, JSON
 * "minimal" (id → ICU MessageFormat text). `npx lingui extract` finds every `i18n._('id')` and `<Trans id>` in src
 * and adds missing ids to every catalogue; `--clean` drops unused ones. The catalogues are compiled at build time
 * (scripts/vite-catalogues.ts) for the browser and at start for the server.
 */
export default defineConfig({
  sourceLocale: SOURCE_LOCALE,
  locales: [...LOCALES],
  catalogs: [{ path: '<rootDir>/src/locales/{locale}', include: ['<rootDir>/src'], exclude: ['**/*.test.*', '**/staff/**'] }],
  format: formatter({ style: 'minimal' }),
  orderBy: 'messageId',
});
