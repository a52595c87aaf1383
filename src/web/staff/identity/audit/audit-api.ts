import type { AuditPageSchema } from '../../../../shared/staff/identity-api';
import { STAFF_API } from '../../../../shared/staff/paths';
import type { z } from 'zod';
import { staffFetch } from '../../api/staff-fetch';

/** One page of the audit log, newest first, for `query` (the audit page's own query string; admin only). */
export function fetchAudit(query: string): Promise<z.infer<typeof AuditPageSchema>> {
  return staffFetch(query ? `${STAFF_API.audit}?${query}` : STAFF_API.audit);
}
