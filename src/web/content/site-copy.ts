/**
 * Copy of the site that the spec leaves to us. Every fact here comes from
 * /work/shared/content-facts.md (UNESCO's description of the Belize Barrier Reef Reserve System);
 * the headline stats are the spec's own (section 1) and are kept as written.
 */

/** The site's name, shown in the logo and the page title. */
export const SITE_NAME = 'Belize Barrier Reef Donations';

/** A headline figure and what it counts. */
export interface Stat {
  value: string;
  label: string;
}

/** The landing hero's three stats, exactly as the spec writes them (section 1). */
export const HERO_STATS: readonly Stat[] = [
  { value: '7', label: 'protected areas' },
  { value: '300+', label: 'coral species' },
  { value: '500+', label: 'fish species' },
];

/** The thank-you page's static stats (spec section 2). */
export const THANK_YOU_STATS: readonly Stat[] = [
  { value: '300+', label: 'coral species protected' },
  { value: '500+', label: 'fish species monitored' },
  { value: '7', label: 'protected marine areas' },
];

/** The landing hero's heading: an invitation to support the natural wonder (spec section 1). */
export const HERO_HEADING = 'Help Protect the Belize Barrier Reef';

/** The landing hero's paragraph (facts: UNESCO World Heritage List 1996; largest barrier reef of the Northern Hemisphere; seven protected areas; threatened species). */
export const HERO_PARAGRAPH =
  'The Belize Barrier Reef is the largest barrier reef in the Northern Hemisphere, and since 1996 its seven ' +
  'protected areas have been a UNESCO World Heritage site. It shelters threatened species such as the ' +
  'West Indian manatee, the American crocodile and marine turtles. Your gift helps keep it that way.';

/** The 'What Happens Next' steps of the thank-you page (spec section 2). */
export const NEXT_STEPS: readonly { title: string; text: string }[] = [
  {
    title: 'Confirmation email',
    text: 'You will receive a confirmation email with your receipt within a few minutes.',
  },
  {
    title: 'Tax documentation',
    text: 'Keep your receipt for your tax records. Please consult a tax advisor about whether your donation is deductible.',
  },
  {
    title: 'Putting your gift to work',
    text: 'Your donation will be allocated to marine conservation projects within 30 days.',
  },
];

/** What a donor shares from the thank-you page (issue #2: share buttons do real things). */
export const SHARE_MESSAGE = {
  subject: 'Help protect the Belize Barrier Reef',
  text: 'I just donated to protect the Belize Barrier Reef, a UNESCO World Heritage site. Join me:',
} as const;
