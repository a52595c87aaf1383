import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CAMPAIGN_DATES_MESSAGE,
  CAMPAIGN_SLUG_FIXED_MESSAGE,
  CAMPAIGN_SLUG_TAKEN_MESSAGE,
  StaffCampaignInputSchema,
  StaffCampaignListQuerySchema,
  StaffCampaignListSchema,
  StaffCampaignParamsSchema,
  StaffCampaignSavedSchema,
  StaffCampaignSchema,
  StaffCampaignSupporterParamsSchema,
  StaffSupporterHiddenSchema,
  type StaffCampaignInput,
} from '../../../shared/staff/campaigns-api';
import { EmptyBodySchema } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { campaigns, campaignSupporters, type CampaignRow } from '../../db/schema';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { apiError, INVALID_INPUT_MESSAGE, NOT_FOUND_MESSAGE } from '../../http/errors';
import type { Clock } from '../../platform/clock';
import { recordStaffAction } from '../identity/audit-record';
import { staffErrorAnswers } from '../identity/errors';
import { requireStaff, signedInMember } from '../identity/guard';
import { campaignColumns, findCampaign, listStaffCampaigns, readStaffCampaign, slugRecorded } from './store';
import { and, eq } from 'drizzle-orm';

/**
 * The staff campaigns API (issue #34, "Staff run campaigns"; decision 0101), under /api/staff/campaigns: the list, a
 * campaign's page, a create, an edit, and a supporter's hide. Viewers read (right `read`); finance and admin write (right `campaigns`);
 * every write and its audit entry in one transaction. JSON, CSRF on writes and no-store as every /api route.
 */

/** What the staff campaigns routes need. */
export interface StaffCampaignsOptions {
  db: Database;
  /** The injected clock: a campaign's status. */
  clock: Clock;
  /** The staff's time zone (TZ): the zone of a campaign's start and end as staff type and read them. */
  timeZone: string;
  /** The site's public address (PUBLIC_URL): a campaign's link. */
  publicUrl: string;
}

/** What every read can answer besides its 200: 400 a bad query, 401, 403, 500. */
const READ_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(400, 500) };
/** What every write can answer besides its own: the page's write errors (CSRF 403...), 401, 409 a slug taken or fixed. */
const WRITE_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(...PAGE_WRITE_ERRORS.filter((status) => status !== 403), 409) };

/** PostgreSQL's unique_violation: two creates of one slug at once; the second is answered as a slug taken. */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && ((error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505');

/** The staff campaigns routes; see each route's comment. */
export const staffCampaignRoutes: FastifyPluginAsyncZod<StaffCampaignsOptions> = async (app, { db, clock, timeZone, publicUrl }) => {
  /**
   * The columns of `input`, or the field error of its dates when its end, read in TZ, is not after its start (a daylight
   * saving change can make two local times one instant).
   */
  const columnsOf = (input: StaffCampaignInput) => {
    const columns = campaignColumns(input, timeZone);
    const datesBad = columns.startsAt !== null && columns.endsAt !== null && columns.endsAt <= columns.startsAt;
    return datesBad ? undefined : columns;
  };

  /** The slug's conflict with other campaigns than `own`: taken (without case), or undefined. */
  const slugTaken = async (slug: string, own: CampaignRow | undefined) => {
    const [other] = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.slug, slug));
    return other !== undefined && other.id !== own?.id;
  };

  /** GET /api/staff/campaigns?status=&q= (right `read`): every campaign the filters keep, newest first, with its figures. */
  app.get(
    STAFF_API.campaigns,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: campaigns with their status, goal, raised, percentage, donors and dates',
        querystring: StaffCampaignListQuerySchema,
        response: { 200: StaffCampaignListSchema, ...READ_ERRORS },
      },
    },
    async (request, reply) => reply.code(200).send(await listStaffCampaigns(db, request.query, clock.now(), timeZone)),
  );

  /** GET /api/staff/campaigns/:id (right `read`): the campaign's page (readStaffCampaign); 404 none. */
  app.get(
    STAFF_API.campaign,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: "Staff: a campaign's fields, figures, figures by day and link",
        params: StaffCampaignParamsSchema,
        response: { 200: StaffCampaignSchema, ...READ_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const campaign = await findCampaign(db, request.params.id);
      if (!campaign) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      return reply.code(200).send(await readStaffCampaign(db, campaign, clock.now(), timeZone, publicUrl));
    },
  );

  /**
   * POST /api/staff/campaigns StaffCampaignInputSchema (right `campaigns`): creates the campaign, audited
   * (`campaign.create`) in its transaction; 201 `{id}`. 400 (fieldErrors) bad input; 409 (fieldErrors.slug) a campaign
   * has that slug, without case. Nothing is written on an error.
   */
  app.post(
    STAFF_API.campaigns,
    {
      preHandler: requireStaff('campaigns'),
      schema: {
        summary: 'Staff: create a campaign',
        body: StaffCampaignInputSchema,
        response: { 201: StaffCampaignSavedSchema, ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const columns = columnsOf(request.body);
      if (!columns) return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { endsAt: CAMPAIGN_DATES_MESSAGE }));
      if (await slugTaken(columns.slug, undefined)) return reply.code(409).send(apiError(CAMPAIGN_SLUG_TAKEN_MESSAGE, { slug: CAMPAIGN_SLUG_TAKEN_MESSAGE }));
      try {
        const id = await db.transaction(async (tx) => {
          const [created] = await tx.insert(campaigns).values(columns).returning({ id: campaigns.id });
          if (!created) throw new Error('The campaign was not written');
          await recordStaffAction(tx, {
            staffMember: signedInMember(request),
            action: 'campaign.create',
            subjectType: 'campaign',
            subjectId: created.id,
            details: { slug: columns.slug, published: columns.published },
            requestId: request.id,
          });
          return created.id;
        });
        return reply.code(201).send({ id });
      } catch (error) {
        if (isUniqueViolation(error)) return reply.code(409).send(apiError(CAMPAIGN_SLUG_TAKEN_MESSAGE, { slug: CAMPAIGN_SLUG_TAKEN_MESSAGE }));
        throw error;
      }
    },
  );

  /**
   * PUT /api/staff/campaigns/:id StaffCampaignInputSchema (right `campaigns`): replaces the campaign's fields, audited
   * (`campaign.update`, with the names of the fields changed) in its transaction; 200 `{id}`. 400 bad input; 404 none;
   * 409 (fieldErrors.slug) a new slug another campaign has, or a new slug once a gift recorded the old one (issue #34:
   * "fixed once a gift has recorded it"). Nothing is written on an error.
   */
  app.put(
    STAFF_API.campaign,
    {
      preHandler: requireStaff('campaigns'),
      schema: {
        summary: 'Staff: edit a campaign',
        params: StaffCampaignParamsSchema,
        body: StaffCampaignInputSchema,
        response: { 200: StaffCampaignSavedSchema, ...WRITE_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const columns = columnsOf(request.body);
      if (!columns) return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { endsAt: CAMPAIGN_DATES_MESSAGE }));
      const campaign = await findCampaign(db, request.params.id);
      if (!campaign) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      if (columns.slug !== campaign.slug) {
        if (await slugRecorded(db, campaign.slug)) return reply.code(409).send(apiError(CAMPAIGN_SLUG_FIXED_MESSAGE, { slug: CAMPAIGN_SLUG_FIXED_MESSAGE }));
        if (await slugTaken(columns.slug, campaign)) return reply.code(409).send(apiError(CAMPAIGN_SLUG_TAKEN_MESSAGE, { slug: CAMPAIGN_SLUG_TAKEN_MESSAGE }));
      }
      const changed = (Object.keys(columns) as Array<keyof typeof columns>).filter(
        (name) => JSON.stringify(columns[name]) !== JSON.stringify(campaign[name]),
      );
      try {
        await db.transaction(async (tx) => {
          await tx.update(campaigns).set({ ...columns, updatedAt: new Date() }).where(eq(campaigns.id, campaign.id));
          await recordStaffAction(tx, {
            staffMember: signedInMember(request),
            action: 'campaign.update',
            subjectType: 'campaign',
            subjectId: campaign.id,
            details: { slug: columns.slug, changed },
            requestId: request.id,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) return reply.code(409).send(apiError(CAMPAIGN_SLUG_TAKEN_MESSAGE, { slug: CAMPAIGN_SLUG_TAKEN_MESSAGE }));
        throw error;
      }
      return reply.code(200).send({ id: campaign.id });
    },
  );

  /**
   * POST /api/staff/campaigns/:id/supporters/:donationId/hide (right `campaigns`; issue #34: the supporters' list "with a
   * 'hide' action (audited)"; decision 0103): takes the supporter off the campaign's public list (within the figures'
   * minute), audited (`campaign.supporter.hide`) in its transaction; 200 `{hiddenAt}`. Idempotent: a second hide keeps the
   * first's instant and writes nothing. 404 no such campaign or no such supporter of it; 400 malformed ids.
   */
  app.post(
    STAFF_API.campaignSupporterHide,
    {
      preHandler: requireStaff('campaigns'),
      schema: {
        summary: "Staff: hide a supporter from a campaign's public supporters' list",
        params: StaffCampaignSupporterParamsSchema,
        body: EmptyBodySchema,
        response: { 200: StaffSupporterHiddenSchema, ...WRITE_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const campaign = await findCampaign(db, request.params.id);
      if (!campaign) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const mine = and(eq(campaignSupporters.donationId, request.params.donationId), eq(campaignSupporters.campaign, campaign.slug));
      const hiddenAt = await db.transaction(async (tx) => {
        const [row] = await tx.select({ hiddenAt: campaignSupporters.hiddenAt }).from(campaignSupporters).where(mine).for('update');
        if (!row) return undefined;
        if (row.hiddenAt !== null) return row.hiddenAt;
        const member = signedInMember(request);
        const now = clock.now();
        await tx.update(campaignSupporters).set({ hiddenAt: now, hiddenBy: member.id, updatedAt: now }).where(mine);
        await recordStaffAction(tx, {
          staffMember: member,
          action: 'campaign.supporter.hide',
          subjectType: 'campaign',
          subjectId: campaign.id,
          details: { slug: campaign.slug, donationId: request.params.donationId },
          requestId: request.id,
        });
        return now;
      });
      if (!hiddenAt) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      return reply.code(200).send({ hiddenAt: hiddenAt.toISOString() });
    },
  );
};
