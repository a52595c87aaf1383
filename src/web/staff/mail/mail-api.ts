import type { z } from 'zod';
import type { StaffMailListAnswer, StaffMailRetryAnswerSchema } from '../../../shared/staff/mail-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { staffFetch } from '../api/staff-fetch';

/** One page of the outbox for `query` (the page's own query string: GET /api/staff/mail's, key for key). */
export function fetchMail(query: string): Promise<StaffMailListAnswer> {
  return staffFetch(query ? `${STAFF_API.mail}?${query}` : STAFF_API.mail);
}

/** Makes message `id` due now (the relay sends it at its next run); resolves with its recipient. */
export function retryMail(id: string): Promise<z.infer<typeof StaffMailRetryAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.mailRetry, id), { method: 'POST' });
}
