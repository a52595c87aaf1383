import { z } from 'zod';
import { API_ERROR_CODES } from '../api';
import { atMost, DonorEmailSchema, textField } from '../field-rules';
import { StaffRoleSchema } from './roles';

/**
 * Requests and answers of the staff identity API (issue #21, "Sign-in and sessions"): invitations, passkeys
 * (WebAuthn Level 3 JSON forms, as @simplewebauthn/browser sends and reads them), e-mailed links, sessions, the team
 * and the audit log. Times are ISO 8601 strings (UTC) at the API edge.
 */

/** Codes of the staff API's refusals, beside the readable `error` (the pages branch on the code, never on the text). */
export const STAFF_ERROR_CODES = [
  'staff_unauthenticated',
  'staff_forbidden',
  'staff_reauth_required',
  'staff_link_invalid',
  'staff_passkey_failed',
  'staff_last_admin',
  'staff_last_passkey',
  'staff_member_exists',
  'staff_not_found',
  'staff_rate_limited',
] as const;
/** One of {@link STAFF_ERROR_CODES}. */
export type StaffErrorCode = (typeof STAFF_ERROR_CODES)[number];

/**
 * A staff API refusal: `{success: false, error, code}`; `fieldErrors` on a 400 as everywhere in the API. Besides its
 * own codes, a staff route answers the app-wide refusals (CSRF, malformed body, 500) with their codes (issue #24).
 */
export const StaffApiErrorSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.enum([...STAFF_ERROR_CODES, ...API_ERROR_CODES]).optional(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
/** A refused staff API answer. */
export type StaffApiError = z.infer<typeof StaffApiErrorSchema>;

/** What 401 says: no valid staff session (issue #21, "API"). */
export const STAFF_UNAUTHENTICATED_MESSAGE = 'Sign in to continue.';
/** What 403 says when the role lacks the right. */
export const STAFF_FORBIDDEN_MESSAGE = 'Your role does not allow this. Ask an admin if you need it.';
/** What 403 says when an action needs a recent passkey or link sign-in (refunds: within 15 minutes). */
export const STAFF_REAUTH_MESSAGE = 'Confirm it is you with your passkey, then try again.';
/** What 410 says of a used, expired or unknown e-mailed link (issue #21: "refused with a clear page"). */
export const STAFF_LINK_INVALID_MESSAGE = 'This link has expired or has already been used. Ask for a new one.';
/** What 429 says of too many sign-in attempts or link requests. */
export const STAFF_RATE_LIMITED_MESSAGE = 'Too many sign-in attempts. Please wait a few minutes and try again.';

/** A staff member's e-mail address (the donor form's rule: present, valid, at most 254 characters). */
export const StaffEmailSchema = DonorEmailSchema;

/** A token of an e-mailed link, as the page reads it from its path (base64url). */
export const StaffLinkTokenSchema = z
  .string({ error: 'The link is incomplete' })
  .regex(/^[A-Za-z0-9_-]{20,200}$/, { error: 'The link is incomplete' });

/** A staff member as the API shows them. */
export const StaffMemberSchema = z.object({ id: z.uuid(), email: z.string(), role: StaffRoleSchema });
/** A staff member. */
export type StaffMember = z.infer<typeof StaffMemberSchema>;

/** `{staffMember}`: the answer of a passkey enrollment or sign-in. */
export const StaffSignedInSchema = z.object({ staffMember: StaffMemberSchema });
/** The answer of a passkey enrollment or sign-in. */
export type StaffSignedIn = z.infer<typeof StaffSignedInSchema>;

/** 200 of `GET /api/staff/session`: who is signed in, when they last proved it strongly, and how many passkeys they hold. */
export const StaffSessionSchema = z.object({
  staffMember: StaffMemberSchema,
  strongAuthAt: z.iso.datetime(),
  passkeyCount: z.number().int(),
});
/** The current staff session. */
export type StaffSession = z.infer<typeof StaffSessionSchema>;

/** `{email, role}`: an invitation (operator `POST /api/admin/staff`, admin `POST /api/staff/team`). */
export const StaffInvitationSchema = z.object({ email: StaffEmailSchema, role: StaffRoleSchema });
/** An invitation request. */
export type StaffInvitation = z.infer<typeof StaffInvitationSchema>;

/** A base64url string of a WebAuthn JSON form (bounded: the whole body is at most 16 KiB anyway). */
const Base64UrlSchema = z.string().regex(/^[A-Za-z0-9_-]*={0,2}$/, { error: 'Not a base64url value' }).max(16_384);

/**
 * A passkey's registration as `navigator.credentials.create()` gives it in JSON (WebAuthn Level 3
 * RegistrationResponseJSON; @simplewebauthn/browser's `startRegistration`).
 */
export const RegistrationResponseJsonSchema = z.object({
  id: Base64UrlSchema,
  rawId: Base64UrlSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64UrlSchema,
    attestationObject: Base64UrlSchema,
    authenticatorData: Base64UrlSchema.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: Base64UrlSchema.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** An assertion as `navigator.credentials.get()` gives it in JSON (WebAuthn Level 3 AuthenticationResponseJSON). */
export const AuthenticationResponseJsonSchema = z.object({
  id: Base64UrlSchema,
  rawId: Base64UrlSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64UrlSchema,
    authenticatorData: Base64UrlSchema,
    signature: Base64UrlSchema,
    userHandle: Base64UrlSchema.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** PublicKeyCredentialCreationOptionsJSON (WebAuthn Level 3), for @simplewebauthn/browser's `startRegistration`. */
export const CreationOptionsJsonSchema = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
});
/** PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3), for @simplewebauthn/browser's `startAuthentication`. */
export const RequestOptionsJsonSchema = z.looseObject({ challenge: z.string(), rpId: z.string().optional() });

/** Body of `POST /api/staff/enroll/options`. */
export const EnrollOptionsRequestSchema = z.object({ token: StaffLinkTokenSchema });
/** 200 of `POST /api/staff/enroll/options`: the creation options and the address being enrolled. */
export const EnrollOptionsSchema = z.object({ options: CreationOptionsJsonSchema, email: z.string() });
/** Body of `POST /api/staff/enroll/verify`. */
export const EnrollVerifyRequestSchema = z.object({ token: StaffLinkTokenSchema, response: RegistrationResponseJsonSchema });

/**
 * The body of a staff request that needs none (sign-in options, passkey options, sign-out, the DELETEs): `{}`, or no
 * body at all (Fastify reads an absent body as null).
 */
export const EmptyBodySchema = z.object({}).nullish();
/** 200 of `POST /api/staff/sign-in/options`. */
export const SignInOptionsSchema = z.object({ options: RequestOptionsJsonSchema });
/** Body of `POST /api/staff/sign-in/verify`. */
export const SignInVerifyRequestSchema = z.object({ response: AuthenticationResponseJsonSchema });

/** Body of `POST /api/staff/sign-in/email`. */
export const SignInEmailRequestSchema = z.object({ email: StaffEmailSchema });
/** 202 of `POST /api/staff/sign-in/email`: always the same, whether or not the address is staff. */
export const SignInEmailAcceptedSchema = z.object({ success: z.literal(true) });

/** Body of `POST /api/staff/sign-in/link`. */
export const SignInLinkRequestSchema = z.object({ token: StaffLinkTokenSchema });
/** 200 of `POST /api/staff/sign-in/link`: signed in; `needsPasskey` when they hold none yet (the page then offers one). */
export const SignInLinkSchema = z.object({ staffMember: StaffMemberSchema, needsPasskey: z.boolean() });

/** One of the signed-in member's passkeys (never its public key). */
export const PasskeySchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  /** `singleDevice` or `multiDevice` (WebAuthn backup eligibility). */
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  /** True when the passkey is backed up (synced). */
  backedUp: z.boolean(),
});
/** A passkey. */
export type Passkey = z.infer<typeof PasskeySchema>;
/** 200 of `GET /api/staff/passkeys`, oldest first. */
export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) });
/** Body of `POST /api/staff/passkeys/verify`. */
export const PasskeyVerifyRequestSchema = z.object({ response: RegistrationResponseJsonSchema });
/** 201 of `POST /api/staff/passkeys/verify`. */
export const PasskeyAddedSchema = z.object({ passkey: PasskeySchema });

/** A member of the team as the team page lists them. */
export const TeamMemberSchema = StaffMemberSchema.extend({
  createdAt: z.iso.datetime(),
  /** Passkeys held; 0 until the invitation is used. */
  passkeyCount: z.number().int(),
  /** When they last signed in, or null if never. */
  lastSignInAt: z.iso.datetime().nullable(),
});
/** A team member. */
export type TeamMember = z.infer<typeof TeamMemberSchema>;
/** 200 of `GET /api/staff/team`, by e-mail address. */
export const TeamListSchema = z.object({ members: z.array(TeamMemberSchema) });
/** Body of `PATCH /api/staff/team/:id`. */
export const TeamRoleChangeSchema = z.object({ role: StaffRoleSchema });
/** 200 of `PATCH /api/staff/team/:id`. */
export const TeamMemberAnswerSchema = z.object({ member: TeamMemberSchema });

/** Who did an audited action: an operator (bearer token), a staff member, or the system. */
export const AUDIT_ACTOR_TYPES = ['operator', 'staff', 'system'] as const;
/** One of {@link AUDIT_ACTOR_TYPES}. */
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Largest page of the audit API. */
export const AUDIT_MAX_PAGE_SIZE = 100;

/** A text filter of the audit log: one line of text (field-rules' textField; issue #32), at most `maxLength` characters. */
const auditFilterText = (maxLength: number) => textField([[atMost(maxLength), `Use at most ${maxLength} characters`]]);

/**
 * Query of `GET /api/staff/audit` (filters in the page's URL): `actor` (any part of an e-mail address, or `operator`),
 * `action` (any part of an action's name: `refund` finds every refund action; issue #36), `subjectId`, `from`/`to` (UTC dates, inclusive), `page` (from 1), `pageSize` (1-100, default 50).
 */
export const AuditQuerySchema = z.object({
  actor: auditFilterText(254).optional(),
  action: auditFilterText(200).optional(),
  subjectId: auditFilterText(200).optional(),
  from: z.iso.date({ error: 'Please enter a date, e.g. 2026-11-01' }).optional(),
  to: z.iso.date({ error: 'Please enter a date, e.g. 2026-11-30' }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(AUDIT_MAX_PAGE_SIZE).default(50),
});
/** An audit query. */
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** One audit entry: who, when, what and on which record. */
export const AuditRowSchema = z.object({
  id: z.uuid(),
  at: z.iso.datetime(),
  actorType: z.enum(AUDIT_ACTOR_TYPES),
  actorStaffId: z.uuid().nullable(),
  /** The staff member's address at the time; null for the operator and the system. */
  actorEmail: z.string().nullable(),
  action: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  /** The operator request's target (query string), when it had one. */
  target: z.string().nullable(),
  /** The HTTP status of an operator request; null for staff actions. */
  statusCode: z.number().int().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
/** An audit entry. */
export type AuditRow = z.infer<typeof AuditRowSchema>;
/** 200 of `GET /api/staff/audit`, newest first. */
export const AuditPageSchema = z.object({ rows: z.array(AuditRowSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });

/**
 * The audit actions of the identity part (issue #21: "every sign-in, failure, sign-out and enrollment is audited"; the
 * team's changes too). The donations part adds its own (`donation.*`); operator requests are named by their route.
 */
export const IDENTITY_AUDIT_ACTIONS = {
  invite: 'staff.invite',
  enroll: 'staff.enroll',
  signIn: 'staff.sign_in',
  signInFailed: 'staff.sign_in_failed',
  signInLinkSent: 'staff.sign_in_link_sent',
  reconfirm: 'staff.reconfirm',
  signOut: 'staff.sign_out',
  passkeyAdd: 'staff.passkey_add',
  passkeyRemove: 'staff.passkey_remove',
  roleChange: 'staff.role_change',
  remove: 'staff.remove',
} as const;
/** One of {@link IDENTITY_AUDIT_ACTIONS}' values. */
export type IdentityAuditAction = (typeof IDENTITY_AUDIT_ACTIONS)[keyof typeof IDENTITY_AUDIT_ACTIONS];
