import { z } from 'zod';
import { CAMPAIGN_STATUSES } from '../campaign-api';
import { CAUSES } from '../causes';
import { atMost, textField } from '../field-rules';
import { FREQUENCIES } from '../frequencies';
import { LOCALES, SOURCE_LOCALE } from '../i18n/locales';
import { DollarsAsCentsSchema, StaffSearchSchema } from './donations-api';

/**
 * The staff campaigns API (issue #34, "Staff run campaigns"; decision 0101): the list's query and rows, a campaign's
 * page, and the body that creates or edits one. Money is integer cents in answers and dollars (strings, as the form's
 * fields hold them) in the body; a campaign's start and end are local date-times in the staff's time zone (`TZ`),
 * `YYYY-MM-DDTHH:mm`, in both. Shared by the server and the staff pages.
 */

/** Longest title and description of a campaign, in characters. */
export const MAX_CAMPAIGN_TITLE_LENGTH = 120;
export const MAX_CAMPAIGN_DESCRIPTION_LENGTH = 500;
/** Largest goal, in dollars. */
export const MAX_CAMPAIGN_GOAL_DOLLARS = 100_000_000;

const oneOf = (values: readonly string[]) => `Choose one of ${values.join(', ')}`;

/** `fieldErrors.slug` of a malformed slug. */
export const CAMPAIGN_SLUG_MESSAGE = 'Use letters, digits and dashes, at most 64 characters';
/** `fieldErrors.endsAt` of an end not after the start. */
export const CAMPAIGN_DATES_MESSAGE = 'The end must be after the start';
/** `fieldErrors.slug` of a slug another campaign has (without case). */
export const CAMPAIGN_SLUG_TAKEN_MESSAGE = 'Another campaign has this slug';
/** `fieldErrors.slug` of a change of slug after a gift recorded it. */
export const CAMPAIGN_SLUG_FIXED_MESSAGE = 'A gift has recorded this campaign: its slug can no longer change';

/** A local date-time in the staff's time zone, `YYYY-MM-DDTHH:mm` (what an `<input type="datetime-local">` holds). */
export const LocalDateTimeSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/, { error: 'Use a date and time, YYYY-MM-DDTHH:mm' })
  // A day the month has (not 30 February): the same text back from the calendar.
  .refine((local) => {
    const instant = new Date(`${local}:00Z`);
    return Number.isNaN(instant.getTime()) || instant.toISOString().startsWith(local);
  }, { error: 'Use a date that exists' });

/** A campaign's slug as typed: letters, digits and dashes, at most 64, stored lower-case. */
export const CampaignSlugSchema = z
  .string({ error: CAMPAIGN_SLUG_MESSAGE })
  .regex(/^[A-Za-z0-9-]{1,64}$/, { error: CAMPAIGN_SLUG_MESSAGE })
  .transform((slug) => slug.toLowerCase());

/** A campaign's title and description in one language. */
const CampaignTextSchema = z.strictObject({
  title: textField([[atMost(MAX_CAMPAIGN_TITLE_LENGTH), `Use at most ${MAX_CAMPAIGN_TITLE_LENGTH} characters`]]),
  description: textField([[atMost(MAX_CAMPAIGN_DESCRIPTION_LENGTH), `Use at most ${MAX_CAMPAIGN_DESCRIPTION_LENGTH} characters`]], 'multi'),
});

/**
 * The texts of a campaign, one entry per language of LOCALES: English with a title (required); another language is
 * optional, and left out when its title is empty (the page then shows the English).
 */
export const CampaignTextsSchema = z
  .strictObject(Object.fromEntries(LOCALES.map((locale) => [locale, locale === SOURCE_LOCALE ? CampaignTextSchema : CampaignTextSchema.optional()])))
  .superRefine((texts, ctx) => {
    if (!texts[SOURCE_LOCALE]?.title) ctx.addIssue({ code: 'custom', path: [SOURCE_LOCALE, 'title'], message: 'Enter a title in English' });
  })
  .transform((texts) => Object.fromEntries(Object.entries(texts).filter(([, text]) => text !== undefined && text.title !== '')) as Record<string, { title: string; description: string }>);

/** A goal in dollars as typed (`1000`, `1000.50`), more than 0 and at most {@link MAX_CAMPAIGN_GOAL_DOLLARS}, as cents. */
const GoalDollarsAsCentsSchema = z
  .string()
  .regex(/^[0-9]{1,9}(\.[0-9]{1,2})?$/, { error: `Use an amount in dollars, e.g. 1000, up to ${MAX_CAMPAIGN_GOAL_DOLLARS}` })
  .transform((text) => {
    const [whole = '0', fraction = ''] = text.split('.');
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  })
  .refine((cents) => cents > 0 && cents <= MAX_CAMPAIGN_GOAL_DOLLARS * 100, { error: `Use an amount in dollars, e.g. 1000, up to ${MAX_CAMPAIGN_GOAL_DOLLARS}` });

/**
 * Body of `POST /api/staff/campaigns` and `PUT /api/staff/campaigns/:id`: the whole campaign. `goal` and `presetAmount`
 * in dollars (strings) or null; `startsAt`/`endsAt` local date-times in TZ or null; the end after the start.
 */
export const StaffCampaignInputSchema = z
  .strictObject({
    slug: CampaignSlugSchema,
    texts: CampaignTextsSchema,
    goal: GoalDollarsAsCentsSchema.nullable(),
    startsAt: LocalDateTimeSchema.nullable(),
    endsAt: LocalDateTimeSchema.nullable(),
    presetAmount: DollarsAsCentsSchema.refine((cents) => cents > 0, { error: 'Use an amount more than 0' }).nullable(),
    presetFrequency: z.enum(FREQUENCIES, { error: oneOf(FREQUENCIES) }).nullable(),
    presetCause: z.enum(CAUSES, { error: oneOf(CAUSES) }).nullable(),
    showSupporters: z.boolean(),
    published: z.boolean(),
  })
  .superRefine((input, ctx) => {
    // NOTE: local date-times of one zone compare as text, daylight saving aside (the server checks the instants again).
    if (input.startsAt !== null && input.endsAt !== null && input.endsAt <= input.startsAt) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: CAMPAIGN_DATES_MESSAGE });
    }
  });
/** The body as typed by the form. */
export type StaffCampaignInputFields = z.input<typeof StaffCampaignInputSchema>;
/** The body parsed (cents, lower-case slug). */
export type StaffCampaignInput = z.output<typeof StaffCampaignInputSchema>;

/** Query of `GET /api/staff/campaigns`: `status` (one of CAMPAIGN_STATUSES) and `q` (a slug or title, from its start). */
export const StaffCampaignListQuerySchema = z.strictObject({
  status: z.enum(CAMPAIGN_STATUSES, { error: oneOf(CAMPAIGN_STATUSES) }).optional(),
  q: StaffSearchSchema.optional(),
});
/** A parsed list query. */
export type StaffCampaignListQuery = z.output<typeof StaffCampaignListQuerySchema>;

/** A campaign's figures as staff see them (decision 0101's count); `percent` of the goal, rounded down, or null. */
const FiguresShape = {
  goalCents: z.number().int().nullable(),
  raisedCents: z.number().int(),
  donorCount: z.number().int(),
  percent: z.number().int().nullable(),
};

/** One row of the list: newest first. Dates are local date-times in TZ, or null. */
export const StaffCampaignRowSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  ...FiguresShape,
});
/** One of {@link StaffCampaignRowSchema}. */
export type StaffCampaignRow = z.infer<typeof StaffCampaignRowSchema>;

/** Answer of the list: every campaign the filters keep, and the staff's time zone the dates are in. */
export const StaffCampaignListSchema = z.object({ rows: z.array(StaffCampaignRowSchema), timeZone: z.string() });
/** One of {@link StaffCampaignListSchema}. */
export type StaffCampaignList = z.infer<typeof StaffCampaignListSchema>;

/** A day of a campaign's figures over time: the calendar day in TZ, what counted that day, and the running total. */
export const CampaignDaySchema = z.object({ date: z.iso.date(), raisedCents: z.number().int(), totalCents: z.number().int() });

/**
 * A campaign's page: what the form edits (as typed: dollars, local date-times), its figures, its days from its first
 * counted gift to today (or its end), whether its slug may still change, and its link.
 */
export const StaffCampaignSchema = z.object({
  id: z.uuid(),
  status: z.enum(CAMPAIGN_STATUSES),
  fields: z.object({
    slug: z.string(),
    texts: z.record(z.string(), z.object({ title: z.string(), description: z.string() })),
    goal: z.string().nullable(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    presetAmount: z.string().nullable(),
    presetFrequency: z.enum(FREQUENCIES).nullable(),
    presetCause: z.enum(CAUSES).nullable(),
    showSupporters: z.boolean(),
    published: z.boolean(),
  }),
  ...FiguresShape,
  slugFixed: z.boolean(),
  days: z.array(CampaignDaySchema),
  /** Its supporters' list (decision 0103): every donor who chose to show the name, newest first, hidden ones too. */
  supporters: z.array(
    z.object({
      donationId: z.uuid(),
      name: z.string(),
      givenAt: z.iso.datetime(),
      /** The gift's message when the donor chose to show it, else null. */
      message: z.string().nullable(),
      /** When staff hid it from the public list, or null. */
      hiddenAt: z.iso.datetime().nullable(),
    }),
  ),
  link: z.string(),
  timeZone: z.string(),
});
/** One of {@link StaffCampaignSchema}. */
export type StaffCampaign = z.infer<typeof StaffCampaignSchema>;

/** Answer of a create or an edit: the campaign's id. */
export const StaffCampaignSavedSchema = z.object({ id: z.uuid() });

/** Path parameters of a campaign's routes. */
export const StaffCampaignParamsSchema = z.strictObject({ id: z.uuid({ error: 'Not a campaign id' }) });

/** Path parameters of a supporter's hide: the campaign's id and the supporter's donation id. */
export const StaffCampaignSupporterParamsSchema = z.strictObject({
  id: z.uuid({ error: 'Not a campaign id' }),
  donationId: z.uuid({ error: 'Not a donation id' }),
});

/** Answer of a hide: when the supporter was hidden (the first hide's instant; a second hide changes nothing). */
export const StaffSupporterHiddenSchema = z.object({ hiddenAt: z.iso.datetime() });
