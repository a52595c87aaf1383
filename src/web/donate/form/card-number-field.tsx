import CreditCardIcon from '@mui/icons-material/CreditCard';
import InputAdornment from '@mui/material/InputAdornment';
import { CARD_BRAND_NAMES, CARD_NUMBER_MAX_LENGTH, detectCardBrand, formatCardNumber, stripCardNumber } from '../../../shared/card';
import { FormTextField } from './form-text-field';

/** The hint under the card number: 'Card type: Visa' once digits are typed (spec section 2), else nothing. */
export function cardBrandHint(value: string): string | undefined {
  return stripCardNumber(value) === '' ? undefined : `Card type: ${CARD_BRAND_NAMES[detectCardBrand(value)]}`;
}

/**
 * The 'Card Number' field (spec sections 2 and 5): numeric keypad, grouped in fours as the donor
 * types (formatCardNumber, at most 19 characters), a card icon, and a hint naming the detected
 * brand unless an error message takes its place.
 */
export function CardNumberField() {
  return (
    <FormTextField
      name="cardNumber"
      label="Card Number"
      autoComplete="cc-number"
      required
      placeholder="1234 5678 9012 3456"
      format={formatCardNumber}
      hint={cardBrandHint}
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
