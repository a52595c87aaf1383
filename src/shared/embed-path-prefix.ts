/**
 * The path prefix of the framed pages: `/embed/donate`, `/embed/es/donate` (issue #35; decision 0104). A module of its
 * own: the landing stage tells a framed page by it, and anything else it imported would ship in /donate's JavaScript.
 */
export const EMBED_PATH_PREFIX = '/embed';
