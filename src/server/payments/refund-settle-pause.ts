import type { PaymentGateway } from './gateway';

/**
 * The fault point of the refund process test (issue #32; decision 0095), on with REFUND_SETTLE_PAUSE=on, which the
 * configuration refuses when NODE_ENV=production: `gateway` as it is, but each refund, once the gateway answered (the
 * refund made, its pending row committed), logs `refund.settle_paused` on `log` and never resolves, so the refund is
 * never settled by its request and the test can kill the server at that moment.
 */
export function pausingAfterRefunds(gateway: PaymentGateway, log: { warn: (details: object, message: string) => void }): PaymentGateway {
  return {
    ...gateway,
    async refund(request) {
      const refund = await gateway.refund(request);
      log.warn({ event: 'refund.settle_paused', gatewayRefundId: refund.refundId }, 'Refund settlement paused (REFUND_SETTLE_PAUSE=on)');
      return new Promise<never>(() => undefined);
    },
  };
}
