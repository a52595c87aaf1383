import type { Histogram } from 'prom-client';
import { GatewayTimeoutError, type PaymentGateway } from '../payments/gateway';

/**
 * The payment gateway's latency, measured around the gateway the app charges through (issue #14: "gateway latency
 * histogram"), so the payment code itself knows nothing of metrics.
 */

/** Labels of the gateway latency histogram: the gateway's name, the method called and how it ended. */
export type GatewayCallLabel = 'gateway' | 'operation' | 'outcome';

/**
 * The outcome label of a call that resolved with `result`: its `status` when it has one (a charge's `succeeded` or
 * `declined`, a payment intent's or a refund's status, `not_found`, `requires_authentication`, `saved`...),
 * `not_found` for undefined (an unknown payment intent or SetupIntent), `ok` otherwise.
 */
export function callOutcome(result: unknown): string {
  if (result === undefined) return 'not_found';
  if (typeof result === 'object' && result !== null && 'status' in result && typeof result.status === 'string') return result.status;
  return 'ok';
}

/**
 * `inner` with every method call timed into `histogram` (seconds), labelled by the gateway's name, the method
 * (`operation`: `charge`, `retrievePaymentIntent`...) and the outcome: {@link callOutcome} of what it resolved with,
 * `timeout` when it rejected with GatewayTimeoutError (GATEWAY_TIMEOUT_MS), `error` for any other rejection. Answers
 * and errors pass through unchanged. NOTE: a Proxy, so a method added to PaymentGateway later is timed too.
 */
export function timeGatewayCalls(inner: PaymentGateway, histogram: Histogram<GatewayCallLabel>): PaymentGateway {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return async (...args: unknown[]) => {
        const end = histogram.startTimer({ gateway: target.name, operation: property });
        try {
          const result: unknown = await value.apply(target, args);
          end({ outcome: callOutcome(result) });
          return result;
        } catch (error) {
          end({ outcome: error instanceof GatewayTimeoutError ? 'timeout' : 'error' });
          throw error;
        }
      };
    },
  });
}
