/**
 * The audit log's names for staff actions on donations, shared by every staff capability that acts on one (defined in
 * shared/staff/audit-actions.ts, where the staff pages read them as sentences too).
 */
export { DONATION_AUDIT_ACTIONS, DONATION_SUBJECT } from '../../../shared/staff/audit-actions';
