import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT } from '../../../shared/staff/audit-actions';
import { StaffDonationDetailSchema } from '../../../shared/staff/donations-api';
import { DONOR_NOTE_MAX_LENGTH, StaffDonorDetailSchema, StaffDonorListAnswerSchema } from '../../../shared/staff/donors-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { adminAuditLog, donations, donorMerges, donorNotes, mailOutbox, recurringPlans } from '../../db/schema';
import { enqueueMail } from '../../mail/outbox';
import { manualClock } from '../../platform/clock';
import { planDonorEmail } from '../../recurring/plans';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { donorKeyOf } from '../shared/donor-key';
import { MERGE_UNDO_WINDOW_MS } from './merge';

/**
 * A donor is one person (issue #36, part 1), through the real app and database: the donor-wide e-mail correction
 * (every gift, receipt, plan and waiting e-mail; receipts resent only where asked; every row in the audit), the merge
 * of two donors (lifetime figures, the year-end statement, plans, receipts, notes; its undo within 30 days, refused
 * once a row changed since), notes (roles, bad input), and the roles of every new route.
 * The app's clock stands on 1 February of next year, so this year's statement exists.
 */

const YEAR = new Date().getUTCFullYear();
const NOW = new Date(`${YEAR + 1}-02-01T18:00:00Z`);
const clock = manualClock(NOW);
let t: TestApp;
let smtp: SmtpTestServer;
let viewer: StaffTestSession;
let finance: StaffTestSession;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ clock, env: { SMTP_URL: smtp.url, TZ: 'America/Belize', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'error' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: NOW });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: NOW });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A succeeded donation made through the donor's API; resolves with its id. */
async function give(overrides: Parameters<typeof validSubmission>[0]): Promise<string> {
  const answer = await t.postDonation(validSubmission(overrides));
  expect(answer.statusCode, answer.body).toBe(200);
  const transactionId = answer.json<{ data: { transactionId: string } }>().data.transactionId;
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  return row!.id;
}

/** A staff POST (or GET) as `session`. */
const staff = (method: 'GET' | 'POST', url: string, session: StaffTestSession, payload?: object) =>
  t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
const donorPage = async (key: string, session: StaffTestSession = viewer) => {
  const answer = await staff('GET', staffApiPath(STAFF_API.donor, key), session);
  expect(answer.statusCode, answer.body).toBe(200);
  return StaffDonorDetailSchema.parse(answer.json());
};
const correct = (key: string, body: object, session: StaffTestSession = finance) => staff('POST', staffApiPath(STAFF_API.donorEmail, key), session, body);
const merge = (key: string, body: object, session: StaffTestSession = finance) => staff('POST', staffApiPath(STAFF_API.donorMerges, key), session, body);
const undo = (mergeId: string, session: StaffTestSession = finance) => staff('POST', staffApiPath(STAFF_API.donorMergeUndo, mergeId), session, {});
const addNote = (key: string, body: object, session: StaffTestSession = finance) => staff('POST', staffApiPath(STAFF_API.donorNotes, key), session, body);
const addressOf = (name: string) => `${name}-${randomUUID()}@example.org`;
const donorAudit = (key: string) =>
  t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectType, DONOR_SUBJECT), eq(adminAuditLog.subjectId, key))).orderBy(adminAuditLog.createdAt);
/** The plan whose first gift is `donationId`. */
const planOf = async (donationId: string) => (await t.db.select().from(recurringPlans).where(eq(recurringPlans.firstDonationId, donationId)))[0]!;
/** Counts of every table a refused request must leave alone. */
const counts = async () => [await t.db.$count(donations), await t.db.$count(mailOutbox), await t.db.$count(adminAuditLog), await t.db.$count(donorNotes), await t.db.$count(donorMerges)];

describe('the donor-wide e-mail correction', () => {
  it('moves every gift, the plan and every waiting e-mail to the new address, resends only the receipts asked for, and audits every row', async () => {
    const typo = addressOf('margaret').replace('@example.org', '@exmaple.org');
    const gift = await give({ donorEmail: typo, donorName: 'Margaret Okonkwo', amount: 150 });
    const monthly = await give({ donorEmail: typo, donorName: 'Margaret Okonkwo', amount: 30, frequency: 'monthly' });
    const plan = await planOf(monthly);
    // A plan message still waiting (the next e-mail of the plan), beside the two receipts not yet relayed.
    await enqueueMail(t.db, { kind: 'card_expiring', dedupeKey: `card_expiring:${randomUUID()}`, recipient: typo, recurringPlanId: plan.id });
    const oldKey = donorKeyOf(typo);
    const email = typo.replace('@exmaple.org', '@example.org');

    const answer = await correct(oldKey, { email, resendDonationIds: [gift] });
    expect(answer.statusCode, answer.body).toBe(200);
    const newKey = donorKeyOf(email);
    expect(answer.json()).toMatchObject({ donorKey: newKey, email, previousEmail: typo, donationsUpdated: 2, plansUpdated: 1, receiptsQueued: 1 });
    expect(answer.json<{ messagesRedirected: number }>().messagesRedirected).toBeGreaterThanOrEqual(3);

    // Every gift, the plan's next e-mails and every waiting message go to the new address.
    expect((await t.db.select({ email: donations.donorEmail }).from(donations).where(inArray(donations.id, [gift, monthly]))).map((row) => row.email)).toEqual([email, email]);
    expect(await planDonorEmail(t.db, plan)).toBe(email);
    const waiting = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.status, 'pending'), inArray(mailOutbox.recipient, [typo, email])));
    expect(waiting.every((row) => row.recipient === email)).toBe(true);
    expect(waiting.filter((row) => row.kind === 'receipt_resend').map((row) => row.donationId)).toEqual([gift]);

    // The audit records every row changed, with the old address.
    const [entry] = await donorAudit(newKey);
    expect(entry).toMatchObject({ action: DONOR_AUDIT_ACTIONS.emailCorrected, actorEmail: finance.staffMember.email });
    expect(entry!.details).toMatchObject({ previousEmail: typo, email, previousDonorKey: oldKey, donorKey: newKey, planIds: [plan.id], receiptsResentFor: [gift] });
    expect((entry!.details!.donationIds as string[]).sort()).toEqual([gift, monthly].sort());
    expect((entry!.details!.messageIds as string[]).sort()).toEqual(waiting.filter((row) => row.kind !== 'receipt_resend').map((row) => row.id).sort());

    // One donor with both gifts; the old key names no one; the gift's timeline and the donor's page show the correction.
    const list = StaffDonorListAnswerSchema.parse((await staff('GET', `${STAFF_API.donors}?q=${encodeURIComponent(email)}`, viewer)).json());
    expect(list.rows.map((row) => [row.donorKey, row.giftCount])).toEqual([[newKey, 2]]);
    expect((await staff('GET', staffApiPath(STAFF_API.donor, oldKey), viewer)).statusCode).toBe(404);
    const page = await donorPage(newKey);
    expect(page.audit.map((row) => row.action)).toContain(DONOR_AUDIT_ACTIONS.emailCorrected);
    expect(page.mail.some((row) => row.kind === 'card_expiring' && row.recipient === email)).toBe(true);
    const donation = StaffDonationDetailSchema.parse((await staff('GET', staffApiPath(STAFF_API.donation, monthly), viewer)).json());
    expect(donation.donation.donorKey).toBe(newKey);
    expect(donation.audit.map((row) => row.action)).toContain(DONOR_AUDIT_ACTIONS.emailCorrected);
  });

  it("refuses another donor's address (409), a receipt that is not the donor's (400), a bad body (400), a viewer (403), and an unknown donor (404), writing nothing", async () => {
    const address = addressOf('refused');
    const other = addressOf('other');
    await give({ donorEmail: address });
    const othersGift = await give({ donorEmail: other });
    const key = donorKeyOf(address);
    const before = await counts();
    const taken = await correct(key, { email: other });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<{ fieldErrors: object }>().fieldErrors).toHaveProperty('email');
    expect((await correct(key, { email: addressOf('new'), resendDonationIds: [othersGift] })).statusCode).toBe(400);
    for (const body of [{}, { email: 'not-an-address' }, { email: addressOf('x'), resendDonationIds: ['nope'] }, { email: addressOf('x'), colour: 'blue' }]) {
      expect((await correct(key, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await correct(key, { email: addressOf('new') }, viewer)).statusCode).toBe(403);
    expect((await correct(donorKeyOf(addressOf('nobody')), { email: addressOf('new') })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('merging two donors', () => {
  it('moves every gift, plan, receipt and note to the donor kept; figures and the statement add up; the undo restores exactly', async () => {
    const kept = addressOf('okonkwo');
    const second = addressOf('margret');
    const keptGift = await give({ donorEmail: kept, donorName: 'Margaret Okonkwo', amount: 150 });
    const secondGift = await give({ donorEmail: second, donorName: 'Margret Okonkwo', amount: 20 });
    const secondMonthly = await give({ donorEmail: second, donorName: 'Margret Okonkwo', amount: 10, frequency: 'monthly' });
    const plan = await planOf(secondMonthly);
    const keptKey = donorKeyOf(kept);
    const secondKey = donorKeyOf(second);
    expect((await addNote(secondKey, { body: 'Prefers a call in the morning' })).statusCode).toBe(201);
    await t.app.mail.relayDue();

    const merged = await merge(keptKey, { sourceDonorKey: secondKey });
    expect(merged.statusCode, merged.body).toBe(201);
    const { mergeId } = merged.json<{ mergeId: string }>();
    expect(merged.json()).toMatchObject({ donorKey: keptKey, donationsMoved: 2, notesMoved: 1 });

    const page = await donorPage(keptKey);
    expect(page.figures).toMatchObject({ giftCount: 3, lifetimeCents: 18000, activePlans: 1 });
    expect(page.names).toEqual(['Margaret Okonkwo']);
    expect(page.gifts.map((gift) => gift.id).sort()).toEqual([keptGift, secondGift, secondMonthly].sort());
    expect(page.gifts.every((gift) => gift.receiptNumber !== null && gift.email === kept)).toBe(true);
    expect(page.plans.map((row) => row.id)).toEqual([plan.id]);
    expect(page.notes.map((note) => note.body)).toEqual(['Prefers a call in the morning']);
    expect(page.merges).toMatchObject([{ id: mergeId, sourceEmail: second, giftCount: 2, undoneAt: null }]);
    expect(await planDonorEmail(t.db, plan)).toBe(kept);
    expect((await staff('GET', staffApiPath(STAFF_API.donor, secondKey), viewer)).statusCode).toBe(404);
    // The audit shows what was merged: every row with its old values.
    const [entry] = (await donorAudit(keptKey)).filter((row) => row.action === DONOR_AUDIT_ACTIONS.merged);
    expect(entry!.details).toMatchObject({ mergeId, sourceDonorKey: secondKey, sourceEmail: second, planIds: [plan.id] });
    expect(entry!.details!.donations).toEqual(
      expect.arrayContaining([
        { id: secondGift, donorEmail: second, donorName: 'Margret Okonkwo' },
        { id: secondMonthly, donorEmail: second, donorName: 'Margret Okonkwo' },
      ]),
    );

    // The year-end statement of the donor kept lists all three gifts.
    smtp.received.length = 0;
    expect((await staff('POST', staffApiPath(STAFF_API.donorStatementResend, keptKey), finance, { year: YEAR })).statusCode).toBe(202);
    await t.app.mail.relayDue();
    const statement = smtp.received.find((mail) => mail.subject?.startsWith(`Your ${YEAR} donations`) && JSON.stringify(mail.to).includes(kept));
    expect(statement?.text).toContain('150.00');
    expect(statement?.text).toContain('20.00');
    expect(statement?.text).toContain('10.00');
    expect(statement?.text).toContain('180.00');

    // Undo: every gift, note and figure back as it was.
    const undone = await undo(mergeId);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toEqual({ mergeId, sourceDonorKey: secondKey, donationsRestored: 2 });
    const back = await donorPage(secondKey);
    expect(back).toMatchObject({ names: ['Margret Okonkwo'], figures: { giftCount: 2, lifetimeCents: 3000, activePlans: 1 } });
    expect(back.notes.map((note) => note.body)).toEqual(['Prefers a call in the morning']);
    expect((await donorPage(keptKey)).figures).toMatchObject({ giftCount: 1, lifetimeCents: 15000, activePlans: 0 });
    expect(await planDonorEmail(t.db, plan)).toBe(second);
    expect((await donorAudit(keptKey)).map((row) => row.action)).toContain(DONOR_AUDIT_ACTIONS.mergeUndone);
    expect((await undo(mergeId)).statusCode).toBe(409);
  });

  it('refuses the undo once a moved gift changed since (corrected again) or after 30 days, and a viewer (403), writing nothing', async () => {
    const kept = addressOf('kept');
    const second = addressOf('second');
    await give({ donorEmail: kept, donorName: 'Ana Kept' });
    await give({ donorEmail: second, donorName: 'Ana Second' });
    const keptKey = donorKeyOf(kept);
    const secondKey = donorKeyOf(second);
    expect((await merge(keptKey, { sourceDonorKey: secondKey }, viewer)).statusCode).toBe(403);
    expect((await merge(keptKey, { sourceDonorKey: keptKey })).statusCode).toBe(409);
    expect((await merge(keptKey, { sourceDonorKey: donorKeyOf(addressOf('nobody')) })).statusCode).toBe(404);
    expect((await merge(keptKey, { sourceDonorKey: 'not-a-key' })).statusCode).toBe(400);
    const { mergeId } = (await merge(keptKey, { sourceDonorKey: secondKey })).json<{ mergeId: string }>();
    expect((await undo(mergeId, viewer)).statusCode).toBe(403);

    // 30 days and a minute later, the undo is refused.
    const lateNow = new Date(NOW.getTime() + MERGE_UNDO_WINDOW_MS + 60_000);
    clock.set(lateNow);
    const lateFinance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: lateNow });
    const before = await counts();
    const late = await undo(mergeId, lateFinance);
    clock.set(NOW);
    expect(late.statusCode).toBe(409);
    expect(late.json<{ error: string }>().error).toMatch(/30 days/);

    // Corrected again since the merge: the undo would undo that too, so it is refused with the reason.
    const newAddress = addressOf('corrected');
    expect((await correct(keptKey, { email: newAddress })).statusCode).toBe(200);
    const afterCorrection = await counts();
    const changed = await undo(mergeId);
    expect(changed.statusCode).toBe(409);
    expect(changed.json<{ error: string }>().error).toMatch(/changed since/);
    expect(await counts()).toEqual(afterCorrection);
    expect(afterCorrection.slice(3)).toEqual(before.slice(3));
    expect((await undo(randomUUID())).statusCode).toBe(404);
  });
});

describe('notes on a donor', () => {
  it('finance writes (audited), a viewer reads but cannot write, and bad input is refused with nothing written', async () => {
    const address = addressOf('notes');
    await give({ donorEmail: address });
    const key = donorKeyOf(address);
    const added = await addNote(key, { body: '  She prefers a call in the morning.\r\nNot on Sundays.  ' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ body: 'She prefers a call in the morning.\nNot on Sundays.', authorEmail: finance.staffMember.email });
    const page = await donorPage(key, viewer);
    expect(page.notes).toMatchObject([{ body: 'She prefers a call in the morning.\nNot on Sundays.', authorEmail: finance.staffMember.email }]);
    expect(page.audit.map((row) => row.action)).toContain(DONOR_AUDIT_ACTIONS.noteAdded);

    const before = await counts();
    expect((await addNote(key, { body: 'A viewer writes' }, viewer)).statusCode).toBe(403);
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 'x'.repeat(DONOR_NOTE_MAX_LENGTH + 1) }, { body: 'bell \u0007' }, { body: 42 }, { body: 'ok', pinned: true }]) {
      const answer = await addNote(key, body);
      expect(answer.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(answer.json<{ fieldErrors: object }>().fieldErrors).toBeDefined();
    }
    expect((await addNote(donorKeyOf(addressOf('nobody')), { body: 'Hello' })).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await addNote(key, { body: 'x'.repeat(DONOR_NOTE_MAX_LENGTH) })).statusCode).toBe(201);
    expect(await t.db.$count(donorNotes, eq(donorNotes.donorKey, key))).toBe(2);
    // The database holds the same limit.
    await expect(t.db.execute(sql`INSERT INTO donor_notes (donor_key, body, author_staff_id, author_email) VALUES (${key}, ${'y'.repeat(DONOR_NOTE_MAX_LENGTH + 1)}, ${finance.staffMember.id}, 'x@example.org')`)).rejects.toThrow();
  });
});
