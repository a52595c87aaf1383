import CreditCardIcon from '@mui/icons-material/CreditCard';
import InputAdornment from '@mui/material/InputAdornment';
import { CARD_BRAND_NAMES, CARD_NUMBER_MAX_LENGTH, detectCardBrand, formatCardNumber, stripCardNumber } from '../../../shared/card';
import { FormTextField } from './form-text-field';
import { useTranslation } from '../../i18n/use-translation';
import type { I18n } from '@lingui/core';

/**
 * The hint under the card number in `i18n`'s language: 'Card type: Visa' once digits are typed (spec section 2),
 * else nothing. Brands are proper names; only 'Unknown' is translated (issue #24).
 */
function cardBrandHint(i18n: I18n, value: string): string | undefined {
  if (stripCardNumber(value) === '') return undefined;
  const brand = detectCardBrand(value);
  return i18n._('card.typeHint', { brand: brand === 'unknown' ? i18n._('card.brandUnknown') : CARD_BRAND_NAMES[brand] });
}

/**
 * The 'Card Number' field (spec sections 2 and 5): numeric keypad, grouped in fours as the donor
 * types (formatCardNumber, at most 19 characters), a card icon, and a hint naming the detected
 * brand unless an error message takes its place.
 */
export function CardNumberField() {
  const { i18n } = useTranslation();
  return (
    <FormTextField
      name="cardNumber"
      label={i18n._('card.number')}
      autoComplete="cc-number"
      required
      placeholder="1234 5678 9012 3456"
      format={formatCardNumber}
      hint={(value) => cardBrandHint(i18n, value)}
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: CARD_NUMBER_MAX_LENGTH },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <CreditCardIcon aria-hidden />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
