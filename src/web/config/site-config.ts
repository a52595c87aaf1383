import { DEFAULT_SITE_CONFIG, SITE_CONFIG_META_NAME, type SiteConfig, SiteConfigSchema } from '../../shared/site-config';

/**
 * Reads the deployment settings the server writes into the page as
 * `<meta name="site-config" content="{json}">` (issue #2: read when the server starts, so one build
 * serves any deployment). Returns {@link DEFAULT_SITE_CONFIG} when the tag is absent (e.g. `vite` dev)
 * or does not hold valid settings.
 */
export function readSiteConfig(doc: Document = document): SiteConfig {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${SITE_CONFIG_META_NAME}"]`)?.content;
  if (!content) return DEFAULT_SITE_CONFIG;
  try {
    const parsed = SiteConfigSchema.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data : DEFAULT_SITE_CONFIG;
  } catch {
    return DEFAULT_SITE_CONFIG;
  }
}

let cached: SiteConfig | undefined;

/** The page's deployment settings (`organizationUrl`, `publicUrl`), read once from the document. */
export function getSiteConfig(): SiteConfig {
  cached ??= readSiteConfig();
  return cached;
}
