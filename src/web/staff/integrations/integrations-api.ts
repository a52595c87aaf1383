import type { z } from 'zod';
import type {
  StaffDeliveryLogSchema,
  StaffEndpointInput,
  StaffEndpointListSchema,
  StaffEndpointWithSecretSchema,
} from '../../../shared/staff/integrations-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { staffFetch } from '../api/staff-fetch';

/** The endpoints (issue #38), without secrets. */
export function fetchEndpoints(): Promise<z.infer<typeof StaffEndpointListSchema>> {
  return staffFetch(STAFF_API.integrations);
}

/** Adds an endpoint; resolves with it and its secret (shown once). */
export function addEndpoint(input: StaffEndpointInput): Promise<z.infer<typeof StaffEndpointWithSecretSchema>> {
  return staffFetch(STAFF_API.integrations, { method: 'POST', json: input });
}

/** Rotates endpoint `id`'s secret; resolves with the new one (shown once). */
export function rotateSecret(id: string): Promise<z.infer<typeof StaffEndpointWithSecretSchema>> {
  return staffFetch(staffApiPath(STAFF_API.integrationRotate, id), { method: 'POST' });
}

/** Pauses or resumes endpoint `id`. */
export async function setPaused(id: string, paused: boolean): Promise<void> {
  await staffFetch(staffApiPath(paused ? STAFF_API.integrationPause : STAFF_API.integrationResume, id), { method: 'POST' });
}

/** Queues a test event for endpoint `id`. */
export async function sendTestEvent(id: string): Promise<void> {
  await staffFetch(staffApiPath(STAFF_API.integrationTest, id), { method: 'POST' });
}

/** Endpoint `id`'s delivery log (30 days). */
export function fetchDeliveryLog(id: string): Promise<z.infer<typeof StaffDeliveryLogSchema>> {
  return staffFetch(staffApiPath(STAFF_API.integrationDeliveries, id));
}

/** Resends delivery `deliveryId` of endpoint `id` (same webhook-id). */
export async function resendDelivery(id: string, deliveryId: string): Promise<void> {
  await staffFetch(staffApiPath(STAFF_API.integrationResend, id).replace(':deliveryId', encodeURIComponent(deliveryId)), { method: 'POST' });
}
