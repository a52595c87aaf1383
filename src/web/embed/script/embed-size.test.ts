import { expect, it } from 'vitest';
import { buildEmbedScript, EMBED_BUDGET_GZIP_BYTES } from '../../../../scripts/embed-bundle';

// Issue #35: embed.js is at most 3 kB gzip, with nothing of the site's bundle (no React, MUI, zod, Lingui).
it('builds embed.js alone within 3 kB gzipped', async () => {
  const { code, gzipBytes } = await buildEmbedScript();
  expect(gzipBytes).toBeLessThanOrEqual(EMBED_BUDGET_GZIP_BYTES);
  expect(code).toContain('reef-donate');
  expect(code).not.toMatch(/react|@mui|zod|lingui/i);
});
