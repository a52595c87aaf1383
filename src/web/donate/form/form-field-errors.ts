import type { DonationFormValues } from '../../../shared/donation';
import type { TributeFormValues } from '../../../shared/tribute';

/** A field of the donation form: a top-level one, or one of the "Dedicate this gift" section's (issue #23). */
type FormFieldName = keyof DonationFormValues | `tribute.${keyof TributeFormValues}`;

/**
 * The form field that feeds each dotted path of the API payload: the inverse of toDonationSubmission
 * (shared/donation.ts), in the form's order. Payload paths with no field of this form (amount, frequency
 * and cause come from the selection screen; `paymentMethod` and the card `type` are computed) are absent.
 */
const FORM_FIELD_BY_PAYLOAD_PATH = {
  donorName: 'donorName',
  donorEmail: 'donorEmail',
  donorPhone: 'donorPhone',
  'donorAddress.street': 'street',
  'donorAddress.city': 'city',
  'donorAddress.state': 'state',
  'donorAddress.zipCode': 'zipCode',
  'donorAddress.country': 'country',
  'creditCard.number': 'cardNumber',
  'creditCard.holderName': 'cardholderName',
  'creditCard.expiryMonth': 'expiryMonth',
  'creditCard.expiryYear': 'expiryYear',
  'creditCard.cvv': 'cvv',
  message: 'message',
  isAnonymous: 'isAnonymous',
  'tribute.type': 'tribute.type',
  'tribute.honoreeName': 'tribute.honoreeName',
  'tribute.notify.name': 'tribute.notifyName',
  'tribute.notify.email': 'tribute.notifyEmail',
  'tribute.notify.message': 'tribute.notifyMessage',
} as const satisfies Record<string, FormFieldName>;

/** A message of the server's for one field of the donation form. */
export interface FormFieldError {
  name: FormFieldName;
  message: string;
}

/**
 * Turns a 400 answer's `fieldErrors` (issue #2: payload dotted path such as `creditCard.number` → message)
 * into errors on the donation form's fields (`cardNumber`), in the form's order so the first is the one to
 * focus. Paths that no form field feeds are left out: the snackbar still shows the answer's `error`.
 */
export function toFormFieldErrors(fieldErrors: Readonly<Record<string, string>>): FormFieldError[] {
  return Object.entries(FORM_FIELD_BY_PAYLOAD_PATH).flatMap(([payloadPath, name]) => {
    const message = fieldErrors[payloadPath];
    return message === undefined ? [] : [{ name, message }];
  });
}
