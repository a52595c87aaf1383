import type { PendingDonation } from '../ledger/repository';

/**
 * A donation as processDonation writes it before charging the 4242 4242 4242 4242 test Visa: $25 (2500 cents)
 * one-time to research-science, no optional field; for tests that write pending rows straight to the database.
 */
export const PENDING_TEST_DONATION: PendingDonation = {
  amountCents: 2500,
  currency: 'USD',
  frequency: 'one-time',
  cause: 'research-science',
  donorName: 'Ana Reef',
  donorEmail: 'ana@example.org',
  donorPhone: null,
  address: { street: null, city: null, state: null, zipCode: null, country: null },
  message: null,
  isAnonymous: false,
  cardBrand: 'visa',
  cardLast4: '4242',
  gateway: 'test',
  isTestPayment: true,
};
