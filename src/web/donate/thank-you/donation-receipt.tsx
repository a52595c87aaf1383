import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DonationResult } from '../../../shared/donation';
import { amountWithFrequency } from '../../../shared/frequencies';
import { formatDollars } from '../../../shared/money';
import { amountRows } from './fee-coverage-rows';
import { useTranslation } from '../../i18n/use-translation';

/**
 * The donation's details on the thank-you page (spec section 2): amount, donor name and
 * transaction ID, as a description list; a monthly or yearly gift also says so (`Recurring gift: $50 monthly`) and
 * when its next charge is (issue #13); a gift whose donor covered the fee shows gift, fee and total (issue #23).
 */
export function DonationReceipt({ result }: { result: DonationResult }) {
  const { recurring } = result;
  const { i18n, locale } = useTranslation();
  const nextChargeFormat = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const rows = [
    ...amountRows(i18n, locale, result),
    ...(recurring
      ? [
          { term: i18n._('thankYou.recurringGift'), value: amountWithFrequency(i18n, formatDollars(result.amount, locale), recurring.frequency) },
          { term: i18n._('thankYou.nextCharge'), value: nextChargeFormat.format(new Date(recurring.nextChargeOn)) },
        ]
      : []),
    { term: i18n._('thankYou.donor'), value: result.donorName },
    { term: i18n._('thankYou.transactionId'), value: result.transactionId },
  ];
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        p: 2,
        borderRadius: 2,
        bgcolor: 'background.default',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content minmax(0, 1fr)' },
        columnGap: 3,
        rowGap: { xs: 0.25, sm: 1 },
      }}
    >
      {rows.map((row) => (
        <Box key={row.term} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {row.term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {row.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
