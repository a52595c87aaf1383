import { z } from 'zod';

/** Name of the `<meta>` tag in which the server hands deployment settings to the page (issue #2). */
export const SITE_CONFIG_META_NAME = 'site-config';

/**
 * Deployment settings the page needs, read by the server at start-up so one build serves any
 * deployment (issue #2): the organisation's site ('Learn More About Our Work') and the URL to share.
 */
export const SiteConfigSchema = z.object({
  organizationUrl: z.url(),
  publicUrl: z.url(),
});
/** `{organizationUrl, publicUrl}`, both absolute URLs. */
export type SiteConfig = z.infer<typeof SiteConfigSchema>;

/** Defaults: UNESCO's page of the Belize Barrier Reef Reserve System, and the local server. */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  organizationUrl: 'https://whc.unesco.org/en/list/764/',
  publicUrl: 'http://localhost:3000',
};
