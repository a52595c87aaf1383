import { VALIDATION_MESSAGE_IDS } from '../../shared/validation-message-ids';
import { useTranslation } from '../i18n/use-translation';

/**
 * A function giving a validation message (the shared schemas' English, from the form's resolver or a 400 answer's
 * `fieldErrors`) in the page's language: its catalogue text, or the message itself when the table lacks it.
 * Undefined stays undefined (no error).
 */
export function useValidationMessage(): (message: string | undefined) => string | undefined {
  const { i18n } = useTranslation();
  return (message) => {
    if (message === undefined) return undefined;
    const id = VALIDATION_MESSAGE_IDS[message];
    return id === undefined ? message : i18n._(id);
  };
}
