import { CARD_EXPIRED_MESSAGE, EXPIRY_YEAR_RANGE_MESSAGE } from './donation';
import { MAX_LENGTHS, UNSUPPORTED_CHARACTERS_MESSAGE } from './field-rules';
import { TRIBUTE_MESSAGE_MAX_LENGTH, TRIBUTE_TYPE_MESSAGE } from './tribute';

/**
 * The catalogue id of each English validation message of the shared schemas (src/shared/field-rules.ts,
 * donation.ts, tribute.ts; spec section 5). Those schemas stay English because the server answers with them
 * (400 `fieldErrors`, the spec's texts); the browser shows them in the page's language through this table (src/web/components/use-validation-message.ts)
 * (issue #24, decision 0093). The `/*i18n*\/` marks let `lingui extract` find the ids.
 */
export const VALIDATION_MESSAGE_IDS: Readonly<Record<string, string>> = {
  'Name is required': /*i18n*/ 'validation.nameRequired',
  'Name must be at least 2 characters': /*i18n*/ 'validation.nameTooShort',
  [`Name must be at most ${MAX_LENGTHS.name} characters`]: /*i18n*/ 'validation.nameTooLong',
  'Email is required': /*i18n*/ 'validation.emailRequired',
  'Please enter a valid email address': /*i18n*/ 'validation.emailInvalid',
  [`Email must be at most ${MAX_LENGTHS.email} characters`]: /*i18n*/ 'validation.emailTooLong',
  [`Phone number must be at most ${MAX_LENGTHS.phone} characters`]: /*i18n*/ 'validation.phoneTooLong',
  [`Street address must be at most ${MAX_LENGTHS.street} characters`]: /*i18n*/ 'validation.streetTooLong',
  [`City must be at most ${MAX_LENGTHS.city} characters`]: /*i18n*/ 'validation.cityTooLong',
  [`State / Province must be at most ${MAX_LENGTHS.state} characters`]: /*i18n*/ 'validation.stateTooLong',
  [`ZIP / Postal code must be at most ${MAX_LENGTHS.zipCode} characters`]: /*i18n*/ 'validation.zipCodeTooLong',
  [`Country must be at most ${MAX_LENGTHS.country} characters`]: /*i18n*/ 'validation.countryTooLong',
  [`Message must be at most ${MAX_LENGTHS.message} characters`]: /*i18n*/ 'validation.messageTooLong',
  'Cardholder name is required': /*i18n*/ 'validation.cardholderNameRequired',
  'Card number is required': /*i18n*/ 'validation.cardNumberRequired',
  'Please enter a valid card number': /*i18n*/ 'validation.cardNumberInvalid',
  'CVV is required': /*i18n*/ 'validation.cvvRequired',
  'CVV must be 3-4 digits': /*i18n*/ 'validation.cvvInvalid',
  'Month is required': /*i18n*/ 'validation.monthRequired',
  'Year is required': /*i18n*/ 'validation.yearRequired',
  [CARD_EXPIRED_MESSAGE]: /*i18n*/ 'validation.cardExpired',
  [EXPIRY_YEAR_RANGE_MESSAGE]: /*i18n*/ 'validation.expiryYearRange',
  [UNSUPPORTED_CHARACTERS_MESSAGE]: /*i18n*/ 'validation.unsupportedCharacters',
  [TRIBUTE_TYPE_MESSAGE]: /*i18n*/ 'validation.tributeTypeRequired',
  "Honoree's name is required": /*i18n*/ 'validation.honoreeNameRequired',
  "Honoree's name must be at least 2 characters": /*i18n*/ 'validation.honoreeNameTooShort',
  [`Honoree's name must be at most ${MAX_LENGTHS.name} characters`]: /*i18n*/ 'validation.honoreeNameTooLong',
  'Recipient name is required': /*i18n*/ 'validation.notifyNameRequired',
  'Recipient name must be at least 2 characters': /*i18n*/ 'validation.notifyNameTooShort',
  [`Recipient name must be at most ${MAX_LENGTHS.name} characters`]: /*i18n*/ 'validation.notifyNameTooLong',
  [`Message must be at most ${TRIBUTE_MESSAGE_MAX_LENGTH} characters`]: /*i18n*/ 'validation.tributeMessageTooLong',
};

