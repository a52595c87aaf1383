import type { CampaignFigures } from '../../shared/campaign-api';
import type { Locale } from '../../shared/i18n/locales';
import { centsToDollars, formatDollars } from '../../shared/money';
import { serverI18n } from '../i18n/catalogues';
import { escapeHtml } from '../../shared/html-escape';
import type { PublicSupporter } from './supporters';

/**
 * The campaign hero of a campaign link (issue #34, "Donors see it"; decision 0102): markup the server puts into the
 * pre-rendered landing page, in the hero's place, so the campaign's texts and figures are in the first HTML.
 */


/** The calendar day of `instant` in `timeZone`, as a count of days since 1970-01-01. */
function calendarDay(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day')) / 86_400_000;
}

/**
 * How long a live campaign has left at `now`, in words of `locale` (issue #34: "12 days left", "Ends today at 6 pm",
 * never "0 days left"): on the end's calendar day in `timeZone` (TZ), the hour it ends; before, the calendar days left.
 */
export function timeLeftText(endsAt: Date, now: Date, locale: Locale, timeZone: string): string {
  const i18n = serverI18n(locale);
  const days = calendarDay(endsAt, timeZone) - calendarDay(now, timeZone);
  if (days <= 0) {
    const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: endsAt.getUTCMinutes() === 0 ? undefined : '2-digit' }).format(endsAt);
    return i18n._('campaign.hero.endsToday', { time });
  }
  return i18n._('campaign.hero.daysLeft', { count: days });
}

/** What {@link campaignHeroHtml} shows: the public figures (title and description already in the page's language). */
export interface CampaignHeroInput {
  figures: CampaignFigures;
  /** The latest supporters who chose to be shown (decision 0103), newest first; none while the list is off. */
  supporters?: readonly PublicSupporter[];
  locale: Locale;
  now: Date;
  /** The deployment's time zone (TZ), in which dates and hours are written. */
  timeZone: string;
}

/**
 * A live campaign's figures in words of `locale` (issue #34's hero; issue #35's goal bar reads the same): `raised` ("$1,234
 * raised" or "$1,234 raised of $5,000"), with a goal `percent` (whole, uncapped), `shownPercent` (capped at 100, the bar's
 * value) and `progressText` (the bar's aria-valuetext), then `facts` (the lines under the bar: raised, percent, donors,
 * time left when it ends). `opens` / `ended` instead for a scheduled or ended campaign.
 */
export function campaignFacts({ figures, locale, now, timeZone }: CampaignHeroInput): {
  facts: string[];
  progress: { shownPercent: number; label: string; valueText: string } | null;
  opens: string | null;
  ended: string | null;
} {
  const i18n = serverI18n(locale);
  const money = (cents: number) => formatDollars(centsToDollars(cents), locale === 'es' ? 'es-US' : 'en-US');
  const raised = money(figures.raisedCents);
  const dateTime = (iso: string) =>
    new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
  if (figures.status === 'scheduled' && figures.startsAt !== null) {
    return { facts: [], progress: null, opens: i18n._('campaign.hero.opens', { date: dateTime(figures.startsAt) }), ended: null };
  }
  if (figures.status === 'ended') return { facts: [], progress: null, opens: null, ended: i18n._('campaign.hero.ended', { raised }) };
  const facts: string[] = [];
  let progress: { shownPercent: number; label: string; valueText: string } | null = null;
  if (figures.goalCents === null) {
    facts.push(i18n._('campaign.hero.raised', { raised }));
  } else {
    const goal = money(figures.goalCents);
    const percent = Math.floor((figures.raisedCents * 100) / figures.goalCents);
    facts.push(i18n._('campaign.hero.raisedOfGoal', { raised, goal }), i18n._('campaign.hero.percent', { percent }));
    progress = {
      shownPercent: Math.min(100, percent),
      label: i18n._('campaign.hero.progressLabel'),
      valueText: i18n._('campaign.hero.progressText', { raised, goal, percent }),
    };
  }
  facts.push(i18n._('campaign.hero.donors', { count: figures.donorCount }));
  if (figures.endsAt !== null) facts.push(timeLeftText(new Date(figures.endsAt), now, locale, timeZone));
  return { facts, progress, opens: null, ended: null };
}

/**
 * The campaign hero's markup (decision 0102), every staff-supplied text HTML-escaped: the title (`h1`) and description,
 * then by status: live, the raised amount, and with a goal the goal, percentage and a `progressbar` (aria-valuenow, min,
 * max and aria-valuetext in words), the number of donors and the time left; scheduled, when it opens and that gifts go to
 * the general work; ended, that it has ended, what it raised, and the same. Styled with inline `style` attributes
 * (allowed by the CSP's `style-src-attr`), so it needs no script or style tag.
 */
export function campaignHeroHtml(input: CampaignHeroInput): string {
  const { figures, supporters = [], locale, timeZone } = input;
  const paragraph = (text: string, style = 'margin:0 0 16px;font-size:1.0625rem;max-width:60ch') =>
    `<p style="${style}">${escapeHtml(text)}</p>`;
  const { facts, progress, opens, ended } = campaignFacts(input);
  let body = '';
  if (opens !== null) {
    body = paragraph(opens);
  } else if (ended !== null) {
    body = paragraph(ended);
  } else {
    if (progress !== null) {
      body +=
        `<div role="progressbar" aria-label="${escapeHtml(progress.label)}" aria-valuemin="0" ` +
        `aria-valuemax="100" aria-valuenow="${progress.shownPercent}" aria-valuetext="${escapeHtml(progress.valueText)}" ` +
        `style="height:12px;border-radius:6px;background:rgba(255,255,255,0.3);overflow:hidden;margin:0 0 12px;max-width:60ch">` +
        `<div style="height:100%;width:${progress.shownPercent}%;background:#ffffff"></div></div>`;
    }
    body +=
      '<ul style="list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 24px;font-size:1.0625rem;font-weight:600">' +
      facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join('') +
      '</ul>';
  }
  const description = figures.description === '' ? '' : paragraph(figures.description);
  return (
    `<h1 tabindex="-1" style="margin:0 0 16px;font-size:clamp(1.75rem,6vw,2.5rem);line-height:1.2;font-weight:700;overflow-wrap:anywhere">${escapeHtml(figures.title)}</h1>` +
    description +
    body +
    supportersHtml(supporters, locale, timeZone)
  );
}

/**
 * The supporters' list (issue #34, "Supporters' list"; decision 0103): a heading and, for each supporter, the name as
 * typed, the day of the gift in `timeZone`, and the message when the donor chose to show it, all HTML-escaped; never an
 * amount, an address or a place. Empty when no one is listed.
 */
export function supportersHtml(supporters: readonly PublicSupporter[], locale: Locale, timeZone: string): string {
  if (supporters.length === 0) return '';
  const i18n = serverI18n(locale);
  const day = new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium' });
  const items = supporters.map((supporter) => {
    const message = supporter.message === null ? '' : `<p style="margin:2px 0 0;font-style:italic">${escapeHtml(supporter.message)}</p>`;
    return (
      `<li style="margin:0 0 8px;overflow-wrap:anywhere"><strong>${escapeHtml(supporter.name)}</strong> · ` +
      `<time datetime="${supporter.givenAt.toISOString()}">${escapeHtml(day.format(supporter.givenAt))}</time>${message}</li>`
    );
  });
  return (
    `<section aria-labelledby="campaign-supporters-heading" style="margin:16px 0 0;max-width:60ch">` +
    `<h2 id="campaign-supporters-heading" style="margin:0 0 8px;font-size:1.25rem;font-weight:700">${escapeHtml(i18n._('campaign.hero.supportersHeading'))}</h2>` +
    `<ul style="list-style:none;margin:0;padding:0;font-size:1rem">${items.join('')}</ul></section>`
  );
}
