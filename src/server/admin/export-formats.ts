import { CARD_BRAND_NAMES } from '../../shared/card';
import { CAUSE_DETAILS } from '../../shared/causes';
import { shownEmail, type PaymentMethod } from '../../shared/offline-gifts';
import type { ExportFormat } from './export-request';
import type { ExportRow } from './export-rows';
import { toIsoDate } from '../recurring/calendar';
import { keptAmountCents } from '../ledger/kept-amount';

/**
 * The columns of each export format (issue #14, "Staff actions", Export): the header row each CRM's import tool
 * expects, and how each cell is written from a gift. Sources of the column names and the choices for what no CRM
 * names (anonymity, recurring flag, the cause): docs/decisions/0060-donation-export-for-crms.md; the campaign and the fee
 * covered (issue #23): docs/decisions/0078-campaigns-and-fee-coverage-recorded.md.
 */

/** A column: its header, and its cell of a gift (always text: the CSV writer neutralises formulas in it). */
type Column = readonly [header: string, cell: (row: ExportRow) => string];

/** What a format writes: which gifts, and its columns in order. */
export interface ExportLayout {
  /** Only the gifts the charity keeps (succeeded, not wholly refunded) with the amount kept; else every receipted gift. */
  keptOnly: boolean;
  columns: readonly Column[];
}

/**
 * Integer cents as dollars with two decimals, no thousands separator nor symbol: 2500 -> `25.00`, 1 -> `0.01`,
 * -150 -> `-1.50` (none expected: amounts and refunds are positive). Integer arithmetic only, so never a rounding error.
 */
export function formatCentsAsDollars(amountCents: number): string {
  const sign = amountCents < 0 ? '-' : '';
  const cents = Math.abs(amountCents);
  return `${sign}${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * The first and last name a CRM needs, from the site's single name field: split at the LAST space, after collapsing
 * runs of white space (`María José García` -> `María José` + `García`); one word is a last name with an empty first
 * name (CRMs require a last name: NPSP's Contact1 Last Name, Salesforce's Contact.LastName). Deterministic, so
 * exporting again matches the same CRM contact. Decision 0060.
 */
export function splitDonorName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/u);
  const lastName = words.pop() ?? '';
  return { firstName: words.join(' '), lastName };
}

const causeName = (row: ExportRow) => CAUSE_DETAILS[row.cause].displayName;
/** NPSP's one campaign field of a gift (issue #23, decision 0078): the campaign of the donor's link, else the cause as before (decision 0060). */
const campaignOrCauseName = (row: ExportRow) => row.campaign ?? causeName(row);
const text = (value: string | null) => value ?? '';
const firstName = (row: ExportRow) => splitDonorName(row.donorName).firstName;
const lastName = (row: ExportRow) => splitDonorName(row.donorName).lastName;
/** Boolean cells as `true`/`false` (our file; Salesforce checkboxes). */
const trueFalse = (flag: boolean) => (flag ? 'true' : 'false');
/** Boolean cells as `Yes`/`No` (Little Green Light, CiviCRM Yes/No custom fields). */
const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');
/**
 * How a gift was paid (issue #37: "a `payment_method` column mapped to each CRM's field where it has one"), in each
 * CRM's own default payment method list (decision 0112): NPSP's Payment Method picklist, Bloomerang's transaction
 * methods, Little Green Light's payment types, CiviCRM's payment instruments. A charity that renamed its list remaps
 * them in the CRM's import mapping.
 */
const PAYMENT_METHOD_NAMES: Record<'npsp' | 'bloomerang' | 'lgl' | 'civicrm', Record<PaymentMethod, string>> = {
  npsp: { card: 'Credit Card', cheque: 'Check', cash: 'Cash', bank_transfer: 'ACH/EFT', other: 'Other' },
  bloomerang: { card: 'Credit Card', cheque: 'Check', cash: 'Cash', bank_transfer: 'EFT', other: 'None' },
  lgl: { card: 'Credit Card', cheque: 'Check', cash: 'Cash', bank_transfer: 'Bank Transfer', other: 'Other' },
  civicrm: { card: 'Credit Card', cheque: 'Check', cash: 'Cash', bank_transfer: 'EFT', other: '' },
};
/** The payment method cell of `crm`'s format. */
const methodIn = (crm: keyof typeof PAYMENT_METHOD_NAMES) => (row: ExportRow) => PAYMENT_METHOD_NAMES[crm][row.paymentMethod];
/**
 * The day of a gift: the day it was received for a gift received outside the site (issue #37), else the day its
 * receipt was issued (the moment it succeeded), as before.
 */
const giftDate = (row: ExportRow) => row.receivedOn ?? toIsoDate(row.issuedAt);

/** The donor's contact columns under a CRM's own header names, always in this order. */
interface ContactHeaders {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

/** The columns of {@link ContactHeaders}: first and last name (split from the one name field), e-mail, phone, address. */
function contactColumns(headers: ContactHeaders): Column[] {
  return [
    [headers.firstName, firstName],
    [headers.lastName, lastName],
    // A donor without an e-mail (issue #37) has none in the file: her stand-in address is never exported.
    [headers.email, (row) => shownEmail(row.donorEmail)],
    [headers.phone, (row) => text(row.donorPhone)],
    [headers.street, (row) => text(row.addressStreet)],
    [headers.city, (row) => text(row.addressCity)],
    [headers.state, (row) => text(row.addressState)],
    [headers.zip, (row) => text(row.addressZipCode)],
    [headers.country, (row) => text(row.addressCountry)],
  ];
}

/**
 * A gift's dedication (issue #23, section 3: "the export (`tribute_type`, `honoree_name`)"), the last two columns of
 * every format under those names: `honor` or `memory` and the honoree's name, both empty for a gift not dedicated.
 */
const TRIBUTE_COLUMNS: Column[] = [
  ['tribute_type', (row) => text(row.tributeType)],
  ['honoree_name', (row) => text(row.tributeHonoreeName)],
];

/**
 * What the gift counts toward its campaign (issue #34: "the same rules in ... the export"; decision 0101,
 * ledger/campaign-count.ts): a succeeded gift's amount less its refunds and its covered fee, at least 0; a refunded or
 * disputed gift 0; empty for a gift without a campaign. The sum of this column over a campaign's gifts is what its
 * page says it raised.
 */
const campaignCounted = (row: ExportRow) =>
  row.campaign === null
    ? ''
    : formatCentsAsDollars(row.status === 'succeeded' ? Math.max(row.amountCents - row.refundedCents - row.feeCoveredCents, 0) : 0);

/** Our own file: every receipted gift with its status, amounts and refunds, the donor as stored, and the card's brand and last 4. */
const STANDARD: ExportLayout = {
  keptOnly: false,
  columns: [
    ['receipt_number', (row) => row.receiptNumber],
    ['date', (row) => giftDate(row)],
    ['donation_id', (row) => row.donationId],
    ['status', (row) => row.status],
    ['amount', (row) => formatCentsAsDollars(row.amountCents)],
    ['refunded_amount', (row) => formatCentsAsDollars(row.refundedCents)],
    ['currency', (row) => row.currency],
    ['frequency', (row) => row.frequency],
    ['recurring', (row) => trueFalse(row.isRecurring)],
    ['cause', (row) => row.cause],
    ['donor_name', (row) => row.donorName],
    ...contactColumns({
      firstName: 'first_name', lastName: 'last_name', email: 'email', phone: 'phone',
      street: 'street', city: 'city', state: 'state', zip: 'zip_code', country: 'country',
    }),
    ['anonymous', (row) => trueFalse(row.isAnonymous)],
    ['message', (row) => text(row.message)],
    ['card_brand', (row) => (row.cardBrand ? CARD_BRAND_NAMES[row.cardBrand] : '')],
    ['card_last4', (row) => text(row.cardLast4)],
    ['payment_method', (row) => row.paymentMethod],
    ['gateway', (row) => row.gateway],
    ['transaction_id', (row) => text(row.transactionId)],
    ['test_payment', (row) => trueFalse(row.isTestPayment)],
    ['campaign', (row) => text(row.campaign)],
    ['fee_covered', (row) => formatCentsAsDollars(row.feeCoveredCents)],
    ['campaign_counted', campaignCounted],
    ...TRIBUTE_COLUMNS,
  ],
};

/**
 * Salesforce NPSP Data Import (`npsp__DataImport__c`), one row per gift from Contact1: the fields' API names of the
 * managed package, which Data Loader maps by name; `Donation_Anonymous__c` and `Donation_Recurring__c` are custom
 * checkbox fields the charity adds and maps with Advanced Mapping (NPSP has none).
 */
const NPSP: ExportLayout = {
  keptOnly: true,
  columns: [
    ...contactColumns({
      firstName: 'npsp__Contact1_Firstname__c', lastName: 'npsp__Contact1_Lastname__c', email: 'npsp__Contact1_Personal_Email__c', phone: 'npsp__Contact1_Home_Phone__c',
      street: 'npsp__Home_Street__c', city: 'npsp__Home_City__c', state: 'npsp__Home_State_Province__c', zip: 'npsp__Home_Zip_Postal_Code__c', country: 'npsp__Home_Country__c',
    }),
    ['npsp__Donation_Donor__c', () => 'Contact1'],
    ['npsp__Donation_Amount__c', (row) => formatCentsAsDollars(keptAmountCents(row))],
    ['npsp__Donation_Date__c', (row) => giftDate(row)],
    ['npsp__Donation_Stage__c', () => 'Closed Won'],
    ['npsp__Donation_Campaign_Name__c', campaignOrCauseName],
    ['npsp__Donation_Description__c', (row) => text(row.message)],
    ['npsp__Payment_Method__c', methodIn('npsp')],
    ['npsp__Payment_Check_Reference_Number__c', (row) => row.receiptNumber],
    ['npsp__Payment_Gateway_Payment_ID__c', (row) => text(row.transactionId)],
    ['Donation_Anonymous__c', (row) => trueFalse(row.isAnonymous)],
    ['Donation_Recurring__c', (row) => trueFalse(row.isRecurring)],
    ...TRIBUTE_COLUMNS,
  ],
};

/**
 * Bloomerang's donation import: its field names, which the import maps automatically; the cause is the Fund (which
 * must exist in Bloomerang); `Anonymous?` is the custom transaction field Bloomerang's own help recommends for an
 * anonymous gift (value `Yes`), `Recurring?` and `Receipt Number` custom fields of the same kind.
 */
const BLOOMERANG: ExportLayout = {
  keptOnly: true,
  columns: [
    ...contactColumns({
      firstName: 'First Name', lastName: 'Last Name', email: 'Email Address', phone: 'Phone Number',
      street: 'Street', city: 'City', state: 'State', zip: 'ZIP Code', country: 'Country',
    }),
    ['Date', (row) => giftDate(row)],
    ['Amount', (row) => formatCentsAsDollars(keptAmountCents(row))],
    ['Fund', causeName],
    ['Method', methodIn('bloomerang')],
    ['Note', (row) => text(row.message)],
    ['Receipt Number', (row) => row.receiptNumber],
    ['Anonymous?', (row) => (row.isAnonymous ? 'Yes' : '')],
    ['Recurring?', (row) => (row.isRecurring ? 'Yes' : '')],
    ['Campaign', (row) => text(row.campaign)],
    ...TRIBUTE_COLUMNS,
  ],
};

/**
 * Little Green Light's Flex Importer, gifts with their constituent: LGL's field names (it maps by header, and saves
 * the mapping); `External Gift ID` is the receipt number (a re-import updates rather than duplicates), `Anonymous`
 * LGL's own gift flag, `Recurring` a custom field.
 */
const LGL: ExportLayout = {
  keptOnly: true,
  columns: [
    ...contactColumns({
      firstName: 'First Name', lastName: 'Last Name', email: 'Email', phone: 'Phone',
      street: 'Street', city: 'City', state: 'State', zip: 'Zip', country: 'Country',
    }),
    ['External Gift ID', (row) => row.receiptNumber],
    ['Gift Type', () => 'Gift'],
    ['Gift Date', (row) => giftDate(row)],
    ['Gift Amount', (row) => formatCentsAsDollars(keptAmountCents(row))],
    ['Payment Type', methodIn('lgl')],
    ['Fund', causeName],
    ['Gift Note', (row) => text(row.message)],
    ['Anonymous', (row) => yesNo(row.isAnonymous)],
    ['Recurring', (row) => yesNo(row.isRecurring)],
    ['Campaign', (row) => text(row.campaign)],
    ...TRIBUTE_COLUMNS,
  ],
};

/**
 * CiviCRM's contribution import (Contributions > Import Contributions): the fields' titles, which it matches headers
 * against; contacts matched by e-mail and name. `Transaction ID` and `Invoice Reference` are unique in CiviCRM, so a
 * gift imported twice is refused the second time; `Anonymous` and `Recurring` are Yes/No custom fields.
 */
const CIVICRM: ExportLayout = {
  keptOnly: true,
  columns: [
    ...contactColumns({
      firstName: 'First Name', lastName: 'Last Name', email: 'Email', phone: 'Phone',
      street: 'Street Address', city: 'City', state: 'State/Province', zip: 'Postal Code', country: 'Country',
    }),
    ['Financial Type', () => 'Donation'],
    ['Total Amount', (row) => formatCentsAsDollars(keptAmountCents(row))],
    ['Currency', (row) => row.currency],
    ['Contribution Date', (row) => giftDate(row)],
    ['Contribution Status', () => 'Completed'],
    ['Payment Method', methodIn('civicrm')],
    ['Transaction ID', (row) => text(row.transactionId)],
    ['Invoice Reference', (row) => row.receiptNumber],
    ['Contribution Source', causeName],
    ['Note', (row) => text(row.message)],
    ['Anonymous', (row) => yesNo(row.isAnonymous)],
    ['Recurring', (row) => yesNo(row.isRecurring)],
    ['Campaign', (row) => text(row.campaign)],
    ...TRIBUTE_COLUMNS,
  ],
};

/** The layout of each format. */
export const EXPORT_LAYOUTS: Record<ExportFormat, ExportLayout> = {
  standard: STANDARD,
  npsp: NPSP,
  bloomerang: BLOOMERANG,
  lgl: LGL,
  civicrm: CIVICRM,
};
