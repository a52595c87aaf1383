import type { Passkey, PasskeyListSchema } from '../../../../shared/staff/identity-api';
import { STAFF_API, staffApiPath } from '../../../../shared/staff/paths';
import type { z } from 'zod';
import { staffFetch } from '../../api/staff-fetch';

/** The signed-in member's passkeys. */
export async function fetchPasskeys(): Promise<Passkey[]> {
  const body = await staffFetch<z.infer<typeof PasskeyListSchema>>(STAFF_API.passkeys);
  return body.passkeys;
}

/** Removes one of the signed-in member's passkeys (the server refuses to remove the last one). */
export async function removePasskey(id: string): Promise<void> {
  await staffFetch(staffApiPath(STAFF_API.passkey, id), { method: 'DELETE' });
}
