/**
 * The `operationId` of every operation of the OpenAPI document (issue #41; OpenAPI 3.1, section 4.8.10: "unique among
 * all operations described in the API"), decided here and nowhere else: client generators (openapi-typescript's
 * fetch clients, OpenAPI Generator, Postman) name their functions after them, so they must stay the same from one
 * release to the next and read as what the operation does. The document's transform (openapi.ts) applies them by
 * method and Fastify route URL; src/server/http/openapi.test.ts fails on a route without one, an entry without a route
 * and two entries with the same id. See docs/decisions/0098-openapi-for-integrators-and-node-24.md.
 *
 * Naming: a verb (`get`, `list`, `create`, `change`, `remove`, `email`, `run`...) and its object in camelCase; the
 * staff back office's operations say `Staff`; the operator's (bearer token) and the donor's say neither. Renaming one
 * breaks every client generated from the document: add, never rename.
 */

/** A route's key in {@link OPERATION_IDS}: its method (upper case) and Fastify URL (`:param`), e.g. `GET /api/staff/donations/:id`. */
export const operationKey = (method: string, url: string): string => `${method.toUpperCase()} ${url}`;

/** The operationId of each /api route, by {@link operationKey}. */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  // This document.
  'GET /api/openapi.json': 'getOpenApiDocument',
  // Donations (the donor's pages).
  'POST /api/process-donation': 'processDonation',
  'POST /api/create-payment-intent': 'createPaymentIntent',
  'POST /api/confirm-donation': 'confirmDonation',
  'GET /api/donations/stats': 'getDonationStats',
  // A campaign's public figures (its goal bar).
  'GET /api/campaigns/:slug': 'getCampaign',
  // A donor's choice to appear on a campaign's supporters' list (from the thank-you page).
  'GET /api/campaign-supporters/:token': 'getSupporterChoice',
  'PUT /api/campaign-supporters/:token': 'putSupporterChoice',
  'GET /api/campaigns/:slug/goal-bar': 'getCampaignGoalBar',
  // Embedding (issue #35): whether the asking page may frame the donation pages.
  'GET /api/embed/status': 'getEmbedStatus',
  // Receipts, by capability link.
  'GET /api/receipts/pdf/:token': 'getReceiptPdf',
  'POST /api/receipts/resend': 'emailReceiptLinks',
  // A donor's recurring plan, by its manage link.
  'GET /api/recurring/manage/:token': 'getManagedPlan',
  'POST /api/recurring/manage/:token': 'changeManagedPlan',
  'POST /api/recurring/manage/:token/confirm-payment': 'confirmManagedPlanPayment',
  'POST /api/recurring/manage/:token/card-setup': 'startManagedPlanCardSetup',
  'POST /api/recurring/manage-links': 'emailManageLinks',
  // Payment gateways' events.
  'POST /api/webhooks/stripe': 'receiveStripeEvent',
  // The operator (bearer ADMIN_TOKEN).
  'POST /api/admin/billing/run': 'runBilling',
  'POST /api/admin/staff': 'inviteStaffMember',
  'GET /api/admin/donations.csv': 'exportDonations',
  'POST /api/admin/donations/:id/refund': 'refundDonation',
  'POST /api/admin/statements/run': 'runYearEndStatements',
  'POST /api/admin/offline-gifts': 'recordOfflineGift',
  // The staff back office: identity.
  'GET /api/staff/session': 'getStaffSession',
  'POST /api/staff/enroll/options': 'startStaffEnrollment',
  'POST /api/staff/enroll/verify': 'finishStaffEnrollment',
  'POST /api/staff/sign-in/options': 'startStaffSignIn',
  'POST /api/staff/sign-in/verify': 'finishStaffSignIn',
  'POST /api/staff/sign-in/email': 'emailStaffSignInLink',
  'POST /api/staff/sign-in/link': 'signInStaffWithLink',
  'POST /api/staff/sign-out': 'signOutStaff',
  'GET /api/staff/passkeys': 'listStaffPasskeys',
  'POST /api/staff/passkeys/options': 'startAddingStaffPasskey',
  'POST /api/staff/passkeys/verify': 'finishAddingStaffPasskey',
  'DELETE /api/staff/passkeys/:id': 'removeStaffPasskey',
  'GET /api/staff/team': 'listStaffTeam',
  'POST /api/staff/team': 'inviteStaffTeamMember',
  'PATCH /api/staff/team/:id': 'changeStaffTeamMemberRole',
  'DELETE /api/staff/team/:id': 'removeStaffTeamMember',
  'GET /api/staff/audit': 'listStaffAuditEntries',
  // The staff back office: donations.
  'GET /api/staff/donations': 'listStaffDonations',
  'GET /api/staff/donations/export': 'exportStaffDonations',
  'GET /api/staff/donations/:id': 'getStaffDonation',
  'GET /api/staff/donations/:id/receipt.pdf': 'getStaffDonationReceiptPdf',
  'POST /api/staff/donations/:id/refunds': 'refundStaffDonation',
  'POST /api/staff/donations/:id/receipt/resend': 'resendStaffDonationReceipt',
  'POST /api/staff/donations/:id/email': 'correctStaffDonationEmail',
  // The staff back office: plans, donors, dashboard, mail.
  'GET /api/staff/dashboard': 'getStaffDashboard',
  'GET /api/staff/plans': 'listStaffPlans',
  'GET /api/staff/plans/:id': 'getStaffPlan',
  'POST /api/staff/plans/:id/changes': 'changeStaffPlan',
  'POST /api/staff/plans/:id/manage-link': 'emailStaffPlanManageLink',
  'GET /api/staff/donors': 'listStaffDonors',
  'GET /api/staff/donors/:id': 'getStaffDonor',
  'POST /api/staff/donors/:id/statements/resend': 'resendStaffDonorStatement',
  'POST /api/staff/donors/:id/email': 'correctStaffDonorEmail',
  'POST /api/staff/donors/:id/merges': 'mergeStaffDonors',
  'POST /api/staff/donors/:id/notes': 'addStaffDonorNote',
  'POST /api/staff/donor-merges/:id/undo': 'undoStaffDonorMerge',
  'GET /api/staff/mail': 'listStaffMail',
  'POST /api/staff/mail/:id/retry': 'retryStaffMail',
  // The staff back office: campaigns.
  'GET /api/staff/campaigns': 'listStaffCampaigns',
  'POST /api/staff/campaigns': 'createStaffCampaign',
  'GET /api/staff/campaigns/:id': 'getStaffCampaign',
  'PUT /api/staff/campaigns/:id': 'changeStaffCampaign',
  'POST /api/staff/campaigns/:id/supporters/:donationId/hide': 'hideStaffCampaignSupporter',
  // The staff back office: integrations (outgoing webhooks, issue #38).
  'GET /api/staff/integrations': 'listStaffWebhookEndpoints',
  'POST /api/staff/integrations': 'createStaffWebhookEndpoint',
  'POST /api/staff/integrations/:id/rotate': 'rotateStaffWebhookSecret',
  'POST /api/staff/integrations/:id/pause': 'pauseStaffWebhookEndpoint',
  'POST /api/staff/integrations/:id/resume': 'resumeStaffWebhookEndpoint',
  'POST /api/staff/integrations/:id/test': 'sendStaffWebhookTest',
  'GET /api/staff/integrations/:id/deliveries': 'listStaffWebhookDeliveries',
  'POST /api/staff/integrations/:id/deliveries/:deliveryId/resend': 'resendStaffWebhookDelivery',
  // The staff back office: gifts received outside the site (issue #37).
  'POST /api/staff/offline-gifts': 'recordStaffOfflineGift',
  'POST /api/staff/offline-gifts/:id/void': 'voidStaffOfflineGift',
  'POST /api/staff/offline-gifts/import': 'importStaffOfflineGifts',
  'GET /api/staff/offline-gifts/template.csv': 'getStaffOfflineGiftsTemplate',
};
