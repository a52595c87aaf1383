import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { CAUSE_DETAILS } from '../../../shared/causes';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import type { StaffDonationDetail } from '../../../shared/staff/donations-api';
import { formatCents, formatInstant } from './format';
import { feeCoveredFields } from './fee-covered';
import { StaffLink } from './staff-link';
import { donorPagePath } from '../staff-paths';
import { describePayment, DONATION_STATUS_LABELS, plainCode } from './donation-labels';
import { describeDedication } from './dedication';

/** A list of labelled values (`<dl>`), in two columns where there is room and one at 320 px. */
export function FieldList({ items }: { items: [string, ReactNode][] }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: 0.5, m: 0, mb: 2 }}>
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Every field held of a donation (issue #21), the card as brand and last4 only (never a card number), blank ones as a
 * dash: who gave, how much (with the gift and the fee covered, issue #23) and what is kept after refunds, status,
 * frequency, cause, campaign (issue #23), gateway ids, dates. Every donor-supplied text is isolated (`<bdi>`; issue #32,
 * part 4, decision 0096), so a right-to-left name reads right and cannot reorder what is around it.
 */
export function DonationFields({ donation }: { donation: StaffDonationDetail['donation'] }) {
  const address = [donation.address.street, donation.address.city, donation.address.state, donation.address.zipCode, donation.address.country].filter(Boolean).join(', ');
  return (
    <FieldList
      items={[
        ['Donor', donation.donorName ? <bdi>{donation.donorName}</bdi> : '—'],
        // Issue #36: a donation links to its donor.
        ['Email', <StaffLink to={donorPagePath(donation.donorKey)}><bdi>{donation.email}</bdi></StaffLink>],
        ['Phone', donation.phone ? <bdi>{donation.phone}</bdi> : '—'],
        ['Address', address ? <bdi>{address}</bdi> : '—'],
        ['Anonymous', donation.isAnonymous ? 'Yes: not named in public' : 'No'],
        ['Message', donation.message ? <bdi>{donation.message}</bdi> : '—'],
        ['Dedication', describeDedication(donation.tribute)],
        ['Amount', `${formatCents(donation.amountCents)} ${donation.currency}`],
        ...feeCoveredFields(donation.amountCents, donation.feeCoveredCents),
        ['Refunded', formatCents(donation.refundedCents)],
        ['Kept', formatCents(donation.keptCents)],
        ['Status', DONATION_STATUS_LABELS[donation.status]],
        ['Frequency', `${FREQUENCY_LABELS[donation.frequency]}${donation.recurringPeriod ? `, charge ${donation.recurringPeriod} of its plan` : ''}`],
        ['Cause', CAUSE_DETAILS[donation.cause].displayName],
        ['Campaign', donation.campaign ?? '—'],
        ['Card', donation.last4 ? `${donation.cardBrand ?? 'Card'} ending ${donation.last4}` : '—'],
        ['Payment', describePayment(donation.gateway, donation.mode)],
        ['Charge id', donation.transactionId ?? '—'],
        ['Payment intent id', donation.paymentIntentId ?? '—'],
        ['Declined because', donation.declineCode ? plainCode(donation.declineCode) : '—'],
        ['Created', formatInstant(donation.createdAt)],
        ['Updated', formatInstant(donation.updatedAt)],
      ]}
    />
  );
}
