/**
 * Messages between the Stripe.js stand-in on the site's page and its card iframe (served by the API
 * stand-in, another origin), carried by `postMessage` and checked by origin and source on both ends.
 * Card data never crosses this channel: the iframe sends it straight to the API stand-in.
 */

/** An error as Stripe.js returns it in `{error}` (https://docs.stripe.com/js/error_handling... `StripeError`). */
export interface StandInStripeError {
  type: 'validation_error' | 'card_error' | 'invalid_request_error' | 'api_connection_error' | 'api_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: Record<string, unknown>;
  setup_intent?: Record<string, unknown>;
  payment_method?: Record<string, unknown>;
}

/** What the parent asks the frame to do. */
export type FrameRequest =
  | { method: 'submit' }
  | {
      method: 'confirm';
      intentKind: 'payment' | 'setup';
      clientSecret: string;
      publishableKey: string;
      /** Form fields added to the confirm request (return_url, billing details), flattened to bracket notation. */
      fields: Record<string, string>;
    }
  | { method: 'challenge'; intentKind: 'payment' | 'setup'; clientSecret: string; publishableKey: string }
  | { method: 'clear' | 'focus' | 'blur' | 'collapse' }
  | { method: 'update'; options: { readOnly?: boolean } };

/** The frame's answer to a `confirm` or `challenge`: the intent (publishable view) or an error. */
export type ConfirmReply = { intent: Record<string, unknown> } | { error: StandInStripeError };

/** The frame's answer to a `submit`: `{}` when the fields are complete, else the first field's error. */
export type SubmitReply = { error?: StandInStripeError };

/** Envelope from parent to frame. */
export interface ParentMessage {
  source: 'stripe-stand-in-parent';
  channel: string;
  id: number;
  request: FrameRequest;
}

/** Events the frame reports, as the Payment Element emits them. */
export type FrameEvent =
  | { event: 'ready' }
  | { event: 'change'; complete: boolean; empty: boolean }
  | { event: 'focus' | 'blur' | 'escape' }
  | { event: 'resize'; height: number };

/** Envelope from frame to parent: an event, or the reply to request `id`. */
export type FrameMessage = { source: 'stripe-stand-in-frame'; channel: string } & ({ kind: 'event'; payload: FrameEvent } | { kind: 'reply'; id: number; result: ConfirmReply | SubmitReply | null });
