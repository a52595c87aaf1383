import { describe, expect, it } from 'vitest';
import { emailShareUrl, facebookShareUrl, tweetIntentUrl } from './share-links';

describe('share links', () => {
  const url = 'https://reef.example.org/donate?from=share&x=1';

  it('builds Facebook sharer link with the encoded URL', () => {
    expect(facebookShareUrl(url)).toBe(
      'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Freef.example.org%2Fdonate%3Ffrom%3Dshare%26x%3D1',
    );
  });

  it('builds Tweet intent with text and url parameters', () => {
    const link = new URL(tweetIntentUrl('Help the reef & me', url));
    expect(link.origin + link.pathname).toBe('https://twitter.com/intent/tweet');
    expect(link.searchParams.get('text')).toBe('Help the reef & me');
    expect(link.searchParams.get('url')).toBe(url);
  });

  it('builds mailto with subject and a body that ends with the URL', () => {
    const link = emailShareUrl('Reef & you', 'Join me:', url);
    expect(link.startsWith('mailto:?subject=Reef%20%26%20you&body=')).toBe(true);
    expect(decodeURIComponent(link.split('&body=')[1] ?? '')).toBe(`Join me: ${url}`);
  });
});
