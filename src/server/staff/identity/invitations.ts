import type { StaffInvitation } from '../../../shared/staff/identity-api';
import { IDENTITY_AUDIT_ACTIONS } from '../../../shared/staff/identity-api';
import type { Database } from '../../db/client';
import type { StaffMemberRow } from '../../db/schema';
import { enqueueMail } from '../../mail/outbox';
import { recordStaffAction } from './audit-record';
import type { StaffLinks } from './links';
import { findMemberByEmail, insertMember } from './member-store';
import type { SignedInStaffMember } from './sessions';

/**
 * Invitations (issue #21, "The first staff member"; "Team"): a new member of a role, an enrollment link valid 72
 * hours, and the invitation e-mail queued in the mail outbox, all in one transaction, so an invitation is never
 * half made. The operator's (POST /api/admin/staff, `npm run admin -- staff invite`) and an admin's (POST
 * /api/staff/team) go through here.
 */

/** Who invites: a signed-in admin (audited here, with them as actor), or the operator (audited by the operator hook). */
export type Inviter = { staffMember: Pick<SignedInStaffMember, 'id' | 'email'>; requestId: string } | { operator: true };

/**
 * Invites `invitation.email` as `invitation.role` at `now`: the member, their enrollment link, the `staff_invitation`
 * message and (for an admin) the audit entry `staff.invite`, in one transaction. Returns the new member, or
 * `exists` when a member with that address (any case) exists already; rejects when the database fails (nothing written).
 */
export async function inviteMember(
  db: Database,
  links: StaffLinks,
  { invitation, inviter, now }: { invitation: StaffInvitation; inviter: Inviter; now: Date },
): Promise<StaffMemberRow | 'exists'> {
  return db.transaction(async (tx) => {
    if (await findMemberByEmail(tx, invitation.email)) return 'exists';
    const member = await insertMember(tx, invitation);
    if (!member) return 'exists';
    const linkId = await links.create(tx, { staffId: member.id, purpose: 'enroll', now });
    await enqueueMail(tx, { kind: 'staff_invitation', dedupeKey: `staff_invitation:${linkId}`, recipient: member.email, staffLinkId: linkId });
    if ('staffMember' in inviter) {
      await recordStaffAction(tx, {
        staffMember: inviter.staffMember,
        action: IDENTITY_AUDIT_ACTIONS.invite,
        subjectType: 'staff_member',
        subjectId: member.id,
        details: { email: member.email, role: member.role },
        requestId: inviter.requestId,
      });
    }
    return member;
  });
}
