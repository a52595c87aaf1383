import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Cause } from '../../../shared/causes';
import type { Frequency } from '../../../shared/frequencies';
import { impactBannerMessage } from '../../../shared/impact';
import { EcoIcon } from '../../components/eco-icon';
import { useTranslation } from '../../i18n/use-translation';

/** Props of {@link ImpactBanner}: the selected amount (null when none), frequency and cause. */
export interface ImpactBannerProps {
  amount: number | null;
  frequency: Frequency;
  cause: Cause | null;
}

/**
 * The impact banner (spec section 2) with a leaf icon: 'Your $X [frequency] donation can help
 * protect ...', shown while an amount is selected. The live region (role status) stays in the page
 * even when empty, so screen readers announce each new message.
 */
export function ImpactBanner({ amount, frequency, cause }: ImpactBannerProps) {
  const { i18n, locale } = useTranslation();
  return (
    <Box role="status">
      {amount !== null && (
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            p: 2,
            borderRadius: 2,
            bgcolor: '#e8f5e9',
            color: '#1b5e20',
            border: '1px solid #a5d6a7',
          }}
        >
          <EcoIcon sx={{ flexShrink: 0 }} />
          <Typography sx={{ fontWeight: 500 }}>{impactBannerMessage(i18n, locale, amount, frequency, cause)}</Typography>
        </Box>
      )}
    </Box>
  );
}
