import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { inputGuardIssues, SAFE_KEY } from './input-guard';
import { type ApiError, type ApiErrorCode, TOO_MANY_ATTEMPTS_MESSAGE } from '../../shared/api';
import {
  PAUSE_DATE_IN_PAST_MESSAGE,
  PAUSE_DATE_TOO_FAR_MESSAGE,
  PAYMENT_NOT_CONFIRMED_MESSAGE,
  PLAN_CHANGE_NOT_ALLOWED_MESSAGE,
  PLAN_CHARGE_UNDER_WAY_MESSAGE,
  SETUP_INTENT_NOT_SAVED_MESSAGE,
} from '../../shared/recurring-api';

/**
 * How the API fails (issue #2, "Server behaviour"): every failure answers `{success: false, error, code?}`
 * (ApiErrorSchema), with a sentence a donor can read and never a stack trace or a submitted value
 * (OWASP Error Handling Cheat Sheet). 400 adds `fieldErrors`: dotted field path → first message.
 */

/** 400 for a payload that fails the submission schema; details are in `fieldErrors`. */
export const INVALID_INPUT_MESSAGE = 'Please check the highlighted fields.';
/** 400 for a body that is not JSON at all, or not a JSON object. */
export const INVALID_JSON_MESSAGE = 'The request body must be a JSON object.';
/** 403 when the CSRF token is missing or does not match the visitor's cookie (spec section 7). */
export const CSRF_FAILED_MESSAGE = 'Your session has expired. Please reload the page and try again.';
/**
 * 403 when a state-changing request comes from another site: a foreign `Origin` or `Sec-Fetch-Site: cross-site`
 * (issue #4; OWASP CSRF Prevention Cheat Sheet). Generic on purpose: it does not say which check failed.
 */
export const FOREIGN_ORIGIN_MESSAGE = 'This request did not come from this site, so it was refused. Please reload the page and try again.';
/** 404 for an unknown path. */
export const NOT_FOUND_MESSAGE = 'Not found.';
/** 413 for a body over the limit. */
export const PAYLOAD_TOO_LARGE_MESSAGE = 'The request is too large.';
/** 415 for a body that is not `application/json`. */
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'The request body must be JSON (Content-Type: application/json).';
/** 500 for anything unexpected; the details go to the log only. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again in a few minutes.';
/** 400 for an Idempotency-Key header that is empty, too long or not printable ASCII (issue #3). */
export const INVALID_IDEMPOTENCY_KEY_MESSAGE =
  'The Idempotency-Key header must be 1 to 255 printable characters. Please reload the page and try again.';
/** 409 while the first request with the same Idempotency-Key is still being processed (issue #3; IETF draft). */
export const IDEMPOTENCY_IN_FLIGHT_MESSAGE =
  'Your donation is still being processed. Please wait a moment before trying again: you will not be charged twice.';
/** 422 when an Idempotency-Key comes back with a different body (issue #3; IETF draft). */
export const IDEMPOTENCY_MISMATCH_MESSAGE =
  'This donation attempt was already sent with different details. Please reload the page and try again.';
/** 503 when the database cannot be reached before anything was charged (issue #3, fault 2). */
export const SERVICE_UNAVAILABLE_MESSAGE =
  'We cannot take donations right now, and your card has not been charged. Please try again in a few minutes.';
/**
 * 503 when the card may have been charged but the outcome is not recorded yet: the gateway timed out or
 * failed, or the database failed after the charge (issue #3, faults 1 and 3). The reconciler records it;
 * retrying with the same Idempotency-Key then replays the outcome. See docs/decisions/0011-payment-being-confirmed-is-503.md.
 */
export const PAYMENT_BEING_CONFIRMED_MESSAGE =
  'Your payment is being confirmed. Please wait a few minutes before trying again: you will not be charged twice.';

/** 404 of confirm-donation for a payment intent the gateway does not know (issue #11). */
export const PAYMENT_NOT_FOUND_MESSAGE = 'We could not find this payment. Please reload the page and try again: your card has not been charged.';
/** 400 of confirm-donation when the donation's amount or currency differs from the payment intent's (issue #11). */
export const AMOUNT_MISMATCH_MESSAGE = "The donation's amount does not match the payment. Please reload the page and try again.";
/** 402 of confirm-donation for a payment intent the donor never completed (no card confirmed it; issue #11). */
export const PAYMENT_NOT_COMPLETED_MESSAGE = 'Your payment was not completed and your card was not charged. Please try again.';
/** `fieldErrors` message when card data is sent to a server that must never receive it (Stripe mode, PCI DSS SAQ A; issue #11). */
export const CARD_DATA_REFUSED_MESSAGE = 'Card details go to our payment processor only, never to this server.';
/** `fieldErrors` message when the test gateway is given a payment intent to confirm without a card (issue #11). */
export const CARD_REQUIRED_MESSAGE = 'Card details are required';

/** `fieldErrors` message for a field the schema does not know (strict schema: unknown fields rejected). */
export const UNKNOWN_FIELD_MESSAGE = 'Unknown field';

/**
 * The stable code of each of the donor routes' English messages (issue #24; decision 0094), defined once here beside
 * the messages, so every answer built with {@link apiError} carries its code. Messages of the staff and operator
 * routes have none.
 */
const CODE_OF_MESSAGE = new Map<string, ApiErrorCode>([
  [INVALID_INPUT_MESSAGE, 'invalid_input'],
  [INVALID_JSON_MESSAGE, 'invalid_json'],
  [CSRF_FAILED_MESSAGE, 'csrf_failed'],
  [FOREIGN_ORIGIN_MESSAGE, 'foreign_origin'],
  [NOT_FOUND_MESSAGE, 'not_found'],
  [PAYLOAD_TOO_LARGE_MESSAGE, 'payload_too_large'],
  [UNSUPPORTED_MEDIA_TYPE_MESSAGE, 'unsupported_media_type'],
  [INTERNAL_ERROR_MESSAGE, 'internal_error'],
  [INVALID_IDEMPOTENCY_KEY_MESSAGE, 'invalid_idempotency_key'],
  [IDEMPOTENCY_IN_FLIGHT_MESSAGE, 'idempotency_in_flight'],
  [IDEMPOTENCY_MISMATCH_MESSAGE, 'idempotency_mismatch'],
  [SERVICE_UNAVAILABLE_MESSAGE, 'service_unavailable'],
  [PAYMENT_BEING_CONFIRMED_MESSAGE, 'payment_being_confirmed'],
  [PAYMENT_NOT_FOUND_MESSAGE, 'payment_not_found'],
  [AMOUNT_MISMATCH_MESSAGE, 'amount_mismatch'],
  [PAYMENT_NOT_COMPLETED_MESSAGE, 'payment_not_completed'],
  [CARD_DATA_REFUSED_MESSAGE, 'card_data_refused'],
  [TOO_MANY_ATTEMPTS_MESSAGE, 'too_many_attempts'],
  [PAYMENT_NOT_CONFIRMED_MESSAGE, 'payment_not_confirmed'],
  [SETUP_INTENT_NOT_SAVED_MESSAGE, 'setup_intent_not_saved'],
  [PLAN_CHANGE_NOT_ALLOWED_MESSAGE, 'plan_change_not_allowed'],
  [PLAN_CHARGE_UNDER_WAY_MESSAGE, 'plan_charge_under_way'],
  [PAUSE_DATE_IN_PAST_MESSAGE, 'pause_date_in_past'],
  [PAUSE_DATE_TOO_FAR_MESSAGE, 'pause_date_too_far'],
]);

/** The stable code of one of the donor routes' English messages (issue #24), or undefined (a staff route's message). */
export function codeOfMessage(message: string): ApiErrorCode | undefined {
  return CODE_OF_MESSAGE.get(message);
}

/**
 * Builds the `{success: false, error, code?, fieldErrors?}` body of ApiErrorSchema: `code` is the one given (a
 * decline's, say), else the code of `error` ({@link codeOfMessage}), else none (issue #24).
 */
export function apiError(error: string, fieldErrors?: Record<string, string>, code: ApiErrorCode | undefined = codeOfMessage(error)): ApiError {
  return { success: false, error, ...(code ? { code } : {}), ...(fieldErrors ? { fieldErrors } : {}) };
}

/** A validation issue as fastify-type-provider-zod hands it over (a subset: no submitted value is read). */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}


/**
 * Turns validation issues into `fieldErrors`: each dotted path (`creditCard.number`, `donorAddress.city`)
 * to the FIRST message reported for it, in schema order. An unknown field gets its own path with the
 * message "Unknown field". Issues about the body as a whole (not an object) have no path and are left out.
 * Reads only paths, messages and unknown key names, never the submitted values (zod issues may carry `input`).
 */
export function toFieldErrors(issues: readonly ValidationIssue[]): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  const add = (path: string, message: string) => {
    if (path !== '' && !(path in fieldErrors)) fieldErrors[path] = message;
  };
  for (const issue of issues) {
    const parent = issue.instancePath.split('/').filter(Boolean).join('.');
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params?.keys)) {
      for (const key of issue.params.keys) {
        // NOTE: unknown keys are chosen by the client, so only plain identifiers are echoed back as paths.
        const safe = typeof key === 'string' && SAFE_KEY.test(key) && !/^\d/.test(key);
        add(safe ? (parent ? `${parent}.${key}` : key) : parent || 'body', UNKNOWN_FIELD_MESSAGE);
      }
      continue;
    }
    add(parent, issue.message ?? 'Invalid value');
  }
  return fieldErrors;
}

/** `keyword` of the validation issue {@link safeValidatorCompiler} reports when a schema throws. */
export const SCHEMA_THREW_KEYWORD = 'schema_threw';

/**
 * fastify-type-provider-zod's validator compiler, made safe and guarded. The guard (input-guard.ts, decision 0096)
 * refuses, in every route's body, query string and path parameters, a string holding a control character, a
 * bidirectional control or a lone surrogate, and an over-long query or path value, whatever the route's schema says:
 * one rule for all routes, today's and tomorrow's. A schema that throws on some input (a bug in a
 * refinement, say) gives a validation failure (400) rather than a 500, and the exception's message is
 * logged by {@link handleError}. The exception is never sent to the client.
 */
export const safeValidatorCompiler: FastifySchemaCompiler<unknown> = (routeSchema) => {
  const validate = validatorCompiler(routeSchema as Parameters<typeof validatorCompiler>[0]);
  return (data: unknown) => {
    try {
      const guarded = inputGuardIssues(data, routeSchema.httpPart);
      const result = validate(data);
      if (guarded.length === 0) return result;
      // NOTE: the guard's issues first, so a field with a refused character says so (errors keep each field's first).
      return { error: [...guarded, ...((result as { error?: unknown[] }).error ?? [])] } as unknown as ReturnType<typeof validate>;
    } catch (thrown) {
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      return {
        error: [{ keyword: SCHEMA_THREW_KEYWORD, instancePath: '', schemaPath: '#', message, params: {} }],
      } as unknown as ReturnType<typeof validate>;
    }
  };
};

const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fastify error codes answered with a fixed status and message instead of a 500. */
const KNOWN_ERRORS: Record<string, { statusCode: number; message: string }> = {
  FST_CSRF_MISSING_SECRET: { statusCode: 403, message: CSRF_FAILED_MESSAGE },
  FST_CSRF_INVALID_TOKEN: { statusCode: 403, message: CSRF_FAILED_MESSAGE },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, message: UNSUPPORTED_MEDIA_TYPE_MESSAGE },
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, message: PAYLOAD_TOO_LARGE_MESSAGE },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, message: INVALID_JSON_MESSAGE },
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, message: INVALID_JSON_MESSAGE },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { statusCode: 400, message: INVALID_JSON_MESSAGE },
  FST_ERR_NOT_FOUND: { statusCode: 404, message: NOT_FOUND_MESSAGE },
};

/**
 * The app's error handler (Fastify `setErrorHandler`). Maps:
 * schema validation → 400 with `fieldErrors` (or without them, and INVALID_JSON_MESSAGE when the body
 * is not an object);
 * CSRF failure → 403; wrong content type → 415; body over the limit → 413; malformed JSON → 400;
 * any other 4xx Fastify error → its status with a generic sentence; everything else → 500, logged with
 * its stack, answered with INTERNAL_ERROR_MESSAGE only.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (Array.isArray(error.validation)) {
    const threw = error.validation.find((issue) => issue.keyword === SCHEMA_THREW_KEYWORD);
    if (threw) {
      // NOTE: digits are masked in case the exception quoted part of the input (a card number or CVV).
      const schemaError = (threw.message ?? '').replace(/\d{3,}/g, '[digits]');
      request.log.error({ schemaError }, 'A validation schema threw instead of reporting an issue');
    }
    const fieldErrors = toFieldErrors(error.validation);
    const hasFields = Object.keys(fieldErrors).length > 0;
    request.log.info({ fields: Object.keys(fieldErrors) }, 'Request failed validation');
    if (hasFields) return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, fieldErrors));
    return reply.code(400).send(apiError(isPlainObject(request.body) ? INVALID_INPUT_MESSAGE : INVALID_JSON_MESSAGE));
  }

  const known = error.code ? KNOWN_ERRORS[error.code] : undefined;
  if (known) {
    request.log.info({ code: error.code, statusCode: known.statusCode }, 'Request refused');
    return reply.code(known.statusCode).send(apiError(known.message));
  }

  const statusCode = error.statusCode ?? 500;
  if (statusCode >= 400 && statusCode < 500) {
    request.log.info({ code: error.code, statusCode }, 'Request refused');
    return reply.code(statusCode).send(apiError('The request could not be processed.'));
  }

  request.log.error({ err: error }, 'Unexpected error');
  return reply.code(500).send(apiError(INTERNAL_ERROR_MESSAGE));
}

/** Not-found handler for API paths: 404 `{success: false, error: "Not found."}`. */
export function handleApiNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
}
