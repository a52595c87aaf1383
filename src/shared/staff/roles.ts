import { z } from 'zod';

/**
 * Staff roles and their rights (issue #21, "Sign-in and sessions"; DESIGN.md, "Staff"). A role is a set of rights,
 * each role holding every right of the one before it: `viewer` reads everything; `finance` also refunds, resends and
 * corrects receipts and exports; `admin` also manages the team and reads the audit log. The API enforces them
 * (`requireStaff(right)` on the server); pages only hide what a role cannot do. Issue #22: finance also manages
 * recurring plans (`plans`).
 */

/** The roles, least to most powerful. */
export const STAFF_ROLES = ['viewer', 'finance', 'admin'] as const;
/** A staff member's role. */
export const StaffRoleSchema = z.enum(STAFF_ROLES, { error: 'Choose a role: viewer, finance or admin' });
/** One of {@link STAFF_ROLES}. */
export type StaffRole = z.infer<typeof StaffRoleSchema>;

/** Every right a route can require. */
export const STAFF_RIGHTS = ['read', 'refund', 'resend', 'correct', 'export', 'plans', 'campaigns', 'offline_gifts', 'team', 'audit', 'integrations'] as const;
/** One of {@link STAFF_RIGHTS}. */
export type StaffRight = (typeof STAFF_RIGHTS)[number];

const VIEWER_RIGHTS = ['read'] as const satisfies readonly StaffRight[];
const FINANCE_RIGHTS = [...VIEWER_RIGHTS, 'refund', 'resend', 'correct', 'export', 'plans', 'campaigns', 'offline_gifts'] as const satisfies readonly StaffRight[];
const ADMIN_RIGHTS = [...FINANCE_RIGHTS, 'team', 'audit', 'integrations'] as const satisfies readonly StaffRight[];

/**
 * The rights of each role (issue #21: viewer reads; finance = viewer + refund, resend, correct, export; admin = finance +
 * team, audit). Issue #22 adds `plans` to finance: change, pause, resume and cancel a donor's recurring gift, and e-mail
 * the donor their manage link. Issue #34 adds `campaigns`: create and edit campaigns, and hide a supporter. Issue #37 adds
 * `offline_gifts`: record gifts received outside the site (one by one or from a CSV) and void them. Issue #38 adds
 * `integrations` to admin only: outgoing webhook endpoints, their secrets and delivery logs (a secret and the donors'
 * contact leave the charity through them).
 */
export const ROLE_RIGHTS: Readonly<Record<StaffRole, readonly StaffRight[]>> = {
  viewer: VIEWER_RIGHTS,
  finance: FINANCE_RIGHTS,
  admin: ADMIN_RIGHTS,
};

/** True when `role` holds `right` (see {@link ROLE_RIGHTS}). */
export function roleHasRight(role: StaffRole, right: StaffRight): boolean {
  return ROLE_RIGHTS[role].includes(right);
}

/** What each role may do, as a phrase following "you can" (the invitation e-mail, the team page). */
export const ROLE_DESCRIPTIONS: Readonly<Record<StaffRole, string>> = {
  viewer: 'read donations, receipts and their history',
  finance: 'read everything, refund, resend receipts, correct e-mail addresses, merge donors and write notes on them, export, change, pause or cancel recurring gifts, run campaigns, and record gifts received by cheque, cash or transfer',
  admin: 'do all that finance does, manage the team, read the audit log and connect other systems by webhooks',
};
