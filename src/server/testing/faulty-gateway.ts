import type { ChargeRequest, ChargeResult, PaymentGateway, Refund, RefundRequest } from '../payments/gateway';

/**
 * Fault points around a real gateway (issue #3: faults "injected through the gateway interface"). Each hook
 * runs inside `charge`; one that throws makes `charge` reject (an error the server cannot interpret), one that
 * waits delays the answer (a timeout, once longer than GATEWAY_TIMEOUT_MS):
 * - `beforeCharge` runs before the inner gateway is asked: throwing there means nothing was charged;
 * - `afterCharge` runs once the inner gateway charged: throwing there means charged, but the answer was lost.
 * `afterRefund` runs inside `refund` once the inner gateway refunded (issue #32): throwing there means refunded, but
 * the answer was lost; a hook that breaks the database there makes the write after the refund fail.
 */
export interface GatewayFaults {
  beforeCharge?: (request: ChargeRequest) => Promise<void> | void;
  afterCharge?: (request: ChargeRequest, result: ChargeResult) => Promise<void> | void;
  afterRefund?: (request: RefundRequest, refund: Refund) => Promise<void> | void;
}

/** Wraps `inner` with the fault points of `faults` (all optional, changeable at any time); every other method is passed through. */
export function faultyGateway(inner: PaymentGateway, faults: GatewayFaults): PaymentGateway {
  return {
    ...inner,
    async charge(request) {
      await faults.beforeCharge?.(request);
      const result = await inner.charge(request);
      await faults.afterCharge?.(request, result);
      return result;
    },
    async refund(request) {
      const refund = await inner.refund(request);
      await faults.afterRefund?.(request, refund);
      return refund;
    },
  };
}
