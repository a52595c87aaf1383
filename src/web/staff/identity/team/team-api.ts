import type { TeamListSchema, TeamMember } from '../../../../shared/staff/identity-api';
import type { StaffRole } from '../../../../shared/staff/roles';
import { STAFF_API, staffApiPath } from '../../../../shared/staff/paths';
import type { z } from 'zod';
import { staffFetch } from '../../api/staff-fetch';

/** The team, by e-mail address (admin only). */
export async function fetchTeam(): Promise<TeamMember[]> {
  return (await staffFetch<z.infer<typeof TeamListSchema>>(STAFF_API.team)).members;
}

/** Invites `email` as `role`: the server e-mails them an enrollment link (72 hours, single use). */
export async function inviteMember(email: string, role: StaffRole): Promise<void> {
  await staffFetch(STAFF_API.team, { method: 'POST', json: { email, role } });
}

/** Changes a member's role (ends their sessions); 409 for the last admin demoting themselves. */
export async function changeRole(id: string, role: StaffRole): Promise<void> {
  await staffFetch(staffApiPath(STAFF_API.teamMember, id), { method: 'PATCH', json: { role } });
}

/** Removes a member (ends their sessions); 409 for the last admin removing themselves. */
export async function removeMember(id: string): Promise<void> {
  await staffFetch(staffApiPath(STAFF_API.teamMember, id), { method: 'DELETE' });
}
