import { CAUSE_DETAILS, type Cause } from '../../../../shared/causes';
import {
  CAMPAIGN_AUDIT_ACTIONS,
  DONATION_AUDIT_ACTIONS,
  DONOR_AUDIT_ACTIONS,
  MAIL_AUDIT_ACTIONS,
  PLAN_AUDIT_ACTIONS,
  PLAN_CHANGE_AUDIT_ACTIONS,
} from '../../../../shared/staff/audit-actions';
import { IDENTITY_AUDIT_ACTIONS } from '../../../../shared/staff/identity-api';
import { STAFF_MAIL_KIND_LABELS } from '../../../../shared/staff/mail-api';
import { formatCents } from '../../components/format';

/**
 * The one place that turns an audit entry (an action and its details) into a sentence and labelled values (issue #36,
 * part 3: "no raw codes on screen: timeline and audit entries read as sentences ('Margaret's e-mail corrected from ...
 * to ... by ...'), JSON details shown as labelled values"). Used by the audit page, a donor's page and a donation's
 * timeline. Every action of shared/staff/audit-actions.ts and IDENTITY_AUDIT_ACTIONS has its sentence; an operator's
 * request (`POST /api/admin/...`) reads as one; anything else falls back to its name in words.
 */

/** What the formatter reads of an audit entry (the audit page's row, a donor's or a donation's entry). */
export interface AuditEntryLike {
  action: string;
  actorType: string;
  actorEmail: string | null;
  details?: unknown;
  target?: string | null;
  statusCode?: number | null;
}

/** An entry as people read it: one sentence, and its details as `[label, value]` pairs. */
export interface AuditSentence {
  sentence: string;
  details: [label: string, value: string][];
}

/** Who did it, in words: the staff member's address, the operator (bearer token), or the system. */
export function actorOf(entry: Pick<AuditEntryLike, 'actorType' | 'actorEmail'>): string {
  if (entry.actorEmail) return entry.actorEmail;
  return entry.actorType === 'operator' ? 'the operator (API token)' : 'the system';
}

/** The details as a plain record (an entry without details, or with a non-object, has none). */
function recordOf(details: unknown): Record<string, unknown> {
  return details !== null && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
}

/** A text value of the details, or `fallback`. */
function text(details: Record<string, unknown>, key: string, fallback = 'an unknown value'): string {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : fallback;
}

/** A cause's name, or the value as it is. */
function causeName(value: unknown): string {
  return typeof value === 'string' && value in CAUSE_DETAILS ? CAUSE_DETAILS[value as Cause].displayName : String(value ?? 'none');
}

/** The plan's `before` or `after` state of a plan change's details. */
function planState(details: Record<string, unknown>, key: 'before' | 'after'): Record<string, unknown> {
  return recordOf(details[key]);
}

/** `Name's ` when the entry's person is known, else `The donor's `. */
function possessive(who: string | undefined, fallback: string): string {
  return who ? `${who}’s` : fallback;
}

/** A sign-in method in words. */
const METHOD_WORDS: Record<string, string> = { passkey: 'a passkey', link: 'an e-mailed link', enrollment: 'a new passkey' };

/** An operator request (`POST /api/admin/donations/:id/refund`) as a sentence, with its answer's status. */
function operatorSentence(entry: AuditEntryLike): string | undefined {
  const match = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/.exec(entry.action);
  if (!match) return undefined;
  const status = entry.statusCode ?? undefined;
  return `Request ${match[1]} ${match[2]} by ${actorOf(entry)}${status === undefined ? '' : ` answered ${status}`}`;
}

/**
 * The sentence of `entry`. `who` names the entry's person when the page knows it (a donor's name on their page).
 */
function sentenceOf(entry: AuditEntryLike, who: string | undefined): string {
  const d = recordOf(entry.details);
  const by = `by ${actorOf(entry)}`;
  // NOTE: an address is never capitalised; "the operator" starting a sentence is.
  const actor = entry.actorEmail ?? capitalise(actorOf(entry));
  switch (entry.action) {
    case IDENTITY_AUDIT_ACTIONS.invite:
      return `${text(d, 'email', 'A new member')} invited as ${text(d, 'role', 'a member')} ${by}`;
    case IDENTITY_AUDIT_ACTIONS.enroll:
      return `${actor} joined the team with a new passkey`;
    case IDENTITY_AUDIT_ACTIONS.signIn:
      return `${actor} signed in with ${METHOD_WORDS[text(d, 'method', '')] ?? 'a passkey or link'}`;
    case IDENTITY_AUDIT_ACTIONS.signInFailed:
      return `A sign-in was refused (${words(text(d, 'reason', 'no reason given'))})${entry.actorEmail ? ` for ${entry.actorEmail}` : ''}`;
    case IDENTITY_AUDIT_ACTIONS.signInLinkSent:
      return `A sign-in link was e-mailed${entry.actorEmail ? ` to ${entry.actorEmail}` : ''}`;
    case IDENTITY_AUDIT_ACTIONS.reconfirm:
      return `${actor} confirmed it was them again with a passkey`;
    case IDENTITY_AUDIT_ACTIONS.signOut:
      return `${actor} signed out`;
    case IDENTITY_AUDIT_ACTIONS.passkeyAdd:
      return `${actor} added a passkey`;
    case IDENTITY_AUDIT_ACTIONS.passkeyRemove:
      return `${actor} removed a passkey`;
    case IDENTITY_AUDIT_ACTIONS.roleChange:
      return `${possessive(text(d, 'email', ''), 'A member’s')} role changed from ${text(d, 'from')} to ${text(d, 'to')} ${by}`;
    case IDENTITY_AUDIT_ACTIONS.remove:
      return `${text(d, 'email', 'A member')} removed from the team ${by}`;
    case DONATION_AUDIT_ACTIONS.refund:
      return `Refund asked ${by}${typeof d.reason === 'string' ? `: “${d.reason}”` : ''}`;
    case DONATION_AUDIT_ACTIONS.receiptResent:
      return `Receipt sent again to ${text(d, 'recipient')} ${by}`;
    case DONATION_AUDIT_ACTIONS.emailCorrected:
      return `${possessive(who, 'The donor’s')} e-mail on this gift corrected from ${text(d, 'previousEmail')} to ${text(d, 'email')} ${by}`;
    case DONATION_AUDIT_ACTIONS.exported:
      return `Donations exported as ${text(d, 'format', 'a file').toUpperCase()} ${by}`;
    case PLAN_CHANGE_AUDIT_ACTIONS.change_amount:
      return `Plan amount changed from ${money(planState(d, 'before').amountCents)} to ${money(planState(d, 'after').amountCents)} ${by}`;
    case PLAN_CHANGE_AUDIT_ACTIONS.change_cause:
      return `Plan cause changed from ${causeName(planState(d, 'before').cause)} to ${causeName(planState(d, 'after').cause)} ${by}`;
    case PLAN_CHANGE_AUDIT_ACTIONS.pause: {
      const until = planState(d, 'after').pausedUntil;
      return `Plan paused ${typeof until === 'string' ? `until ${until}` : 'until resumed'} ${by}`;
    }
    case PLAN_CHANGE_AUDIT_ACTIONS.resume:
      return `Plan resumed ${by}`;
    case PLAN_CHANGE_AUDIT_ACTIONS.cancel:
      return `Plan cancelled ${by}${d.refundLastCharge === true ? ', its last charge refunded' : ''}${typeof d.reason === 'string' ? `: “${d.reason}”` : ''}`;
    case PLAN_AUDIT_ACTIONS.manageLinkSent:
      return `Manage link e-mailed to ${text(d, 'recipient')} ${by}`;
    case DONOR_AUDIT_ACTIONS.statementResent:
      return `${text(d, 'year', 'A')} statement sent again to ${text(d, 'recipient')} ${by}`;
    case DONOR_AUDIT_ACTIONS.emailCorrected:
      return `${possessive(who, 'The donor’s')} e-mail corrected from ${text(d, 'previousEmail')} to ${text(d, 'email')} on every gift, receipt and plan ${by}`;
    case DONOR_AUDIT_ACTIONS.merged:
      return `Donor ${text(d, 'sourceEmail')} merged into ${who ?? text(d, 'email')} ${by}`;
    case DONOR_AUDIT_ACTIONS.mergeUndone:
      return `Merge of donor ${text(d, 'sourceEmail')} undone ${by}`;
    case DONOR_AUDIT_ACTIONS.noteAdded:
      return `Note added ${by}`;
    case MAIL_AUDIT_ACTIONS.retriedNow:
      return `${mailKind(d.kind)} e-mail to ${text(d, 'recipient')} retried now ${by}`;
    case CAMPAIGN_AUDIT_ACTIONS.create:
      return `Campaign ${text(d, 'slug')} created ${by}`;
    case CAMPAIGN_AUDIT_ACTIONS.update:
      return `Campaign ${text(d, 'slug')} changed ${by}`;
    default:
      return operatorSentence(entry) ?? `${capitalise(words(entry.action))} ${by}`;
  }
}

/** A mail kind's name. */
function mailKind(kind: unknown): string {
  return typeof kind === 'string' && kind in STAFF_MAIL_KIND_LABELS ? STAFF_MAIL_KIND_LABELS[kind as keyof typeof STAFF_MAIL_KIND_LABELS] : 'An';
}

/** An amount in cents, or "an unknown amount". */
function money(value: unknown): string {
  return typeof value === 'number' ? formatCents(value) : 'an unknown amount';
}

/** `snake_case.or.dotted` in words: `snake case or dotted`. */
function words(code: string): string {
  return code.replace(/[._]+/g, ' ').trim();
}

/** The first letter in upper case. */
function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** Labels of the details' keys; a key not listed reads as its words (`redirectedMessages` → `Redirected messages`). */
const DETAIL_LABELS: Record<string, string> = {
  previousEmail: 'Old e-mail',
  email: 'E-mail',
  recipient: 'Sent to',
  reason: 'Reason',
  year: 'Year',
  role: 'Role',
  from: 'From',
  to: 'To',
  method: 'Signed in with',
  messageId: 'E-mail message',
  donationIds: 'Gifts changed',
  donations: 'Gifts before the merge',
  planIds: 'Plans changed',
  messageIds: 'E-mails redirected',
  messages: 'E-mails before the merge',
  notes: 'Notes moved',
  noteIds: 'Notes moved',
  receiptsResentFor: 'Receipts sent again for',
  previousDonorKey: 'Donor key before',
  donorKey: 'Donor key',
  sourceDonorKey: 'Merged donor key',
  sourceEmail: 'Merged donor e-mail',
  mergeId: 'Merge',
  name: 'Name',
  recurringPlanId: 'Plan',
  redirectedMessages: 'E-mails redirected',
  receiptResent: 'Receipt sent again',
  refundLastCharge: 'Last charge refunded',
  before: 'Before',
  after: 'After',
  amountCents: 'Amount',
  cause: 'Cause',
  status: 'Status',
  pausedUntil: 'Paused until',
  filters: 'Filters',
  format: 'Format',
  slug: 'Campaign',
  published: 'Published',
  changed: 'Fields changed',
  kind: 'Kind',
  previousStatus: 'Status before',
  attempts: 'Attempts',
  donationId: 'Gift',
  queued: 'Queued',
  passkeyId: 'Passkey',
  noteId: 'Note',
  length: 'Length (characters)',
  statusCode: 'HTTP status',
  donorEmail: 'E-mail',
  donorName: 'Name',
  id: 'Id',
};

/** The label of the details' key `key`. */
function labelOf(key: string): string {
  return DETAIL_LABELS[key] ?? capitalise(key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/_/g, ' '));
}

/** A detail's value in words (cents as dollars, yes/no, lists joined, objects as `label: value` pairs). */
function valueOf(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return key.endsWith('Cents') ? formatCents(value) : String(value);
  if (typeof value === 'string') return key === 'cause' ? causeName(value) : value;
  if (Array.isArray(value)) return value.length === 0 ? 'None' : value.map((item) => valueOf(key, item)).join('; ');
  return Object.entries(value as Record<string, unknown>)
    .map(([inner, innerValue]) => `${labelOf(inner)}: ${valueOf(inner, innerValue)}`)
    .join(', ');
}

/**
 * `entry` as people read it: its sentence (with `who`, the person's name, when the page knows it) and its details as
 * labelled values (an operator request's target and answer included).
 */
export function auditSentence(entry: AuditEntryLike, who?: string): AuditSentence {
  const details = Object.entries(recordOf(entry.details)).map(([key, value]): [string, string] => [labelOf(key), valueOf(key, value)]);
  if (entry.target) details.unshift(['Request', readableTarget(entry.target)]);
  if (entry.statusCode !== null && entry.statusCode !== undefined && !details.some(([label]) => label === 'HTTP status')) details.push(['HTTP status', String(entry.statusCode)]);
  return { sentence: sentenceOf(entry, who), details };
}

/** An operator request's target (`email=ana%40example.org&role=admin`) as a person reads it (`email=ana@example.org&role=admin`). */
function readableTarget(target: string): string {
  try {
    return decodeURIComponent(target.replaceAll('+', ' '));
  } catch {
    return target;
  }
}
