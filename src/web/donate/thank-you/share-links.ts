/**
 * Share links of the thank-you page (issue #2: the share buttons do real things and share PUBLIC_URL).
 * Each takes the URL to share (and the words around it) and returns the link to open.
 */

/** Facebook's sharer for `url`. */
export function facebookShareUrl(url: string): string {
  return `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`;
}

/** X's (Twitter's) Tweet intent with `text` and `url`. */
export function tweetIntentUrl(text: string, url: string): string {
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
}

/** A `mailto:` link with no recipient, the `subject`, and a body of `text` followed by `url`. */
export function emailShareUrl(subject: string, text: string, url: string): string {
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(`${text} ${url}`)}`;
}
