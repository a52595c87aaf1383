import { GatewayTimeoutError, type PaymentGateway } from './gateway';

/** Settles like `promise`, or rejects with a {@link GatewayTimeoutError} after `timeoutMs` if it has not settled. */
function withinMs<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new GatewayTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Bounds every call to `gateway` by `timeoutMs` (GATEWAY_TIMEOUT_MS; issue #3, fault 1). A call that takes
 * longer rejects with {@link GatewayTimeoutError}: its outcome is unknown (the charge may still go through,
 * as with a real network), so the donation stays `pending` for the reconciler, which asks the gateway later.
 */
export function withGatewayTimeout(gateway: PaymentGateway, timeoutMs: number): PaymentGateway {
  return {
    name: gateway.name,
    isTestMode: gateway.isTestMode,
    acceptsCardData: gateway.acceptsCardData,
    charge: (request) => withinMs(gateway.charge(request), timeoutMs),
    retrieveCharge: (idempotencyKey) => withinMs(gateway.retrieveCharge(idempotencyKey), timeoutMs),
    createPaymentIntent: (request) => withinMs(gateway.createPaymentIntent(request), timeoutMs),
    retrievePaymentIntent: (id) => withinMs(gateway.retrievePaymentIntent(id), timeoutMs),
    cancelPaymentIntent: (id) => withinMs(gateway.cancelPaymentIntent(id), timeoutMs),
    confirmPaymentIntent: (id, card) => withinMs(gateway.confirmPaymentIntent(id, card), timeoutMs),
    refund: (request) => withinMs(gateway.refund(request), timeoutMs),
    retrieveRefund: (lookup) => withinMs(gateway.retrieveRefund(lookup), timeoutMs),
    savePaymentMethod: (card) => withinMs(gateway.savePaymentMethod(card), timeoutMs),
    chargeSavedPaymentMethod: (request) => withinMs(gateway.chargeSavedPaymentMethod(request), timeoutMs),
    createSetupIntent: (customerId) => withinMs(gateway.createSetupIntent(customerId), timeoutMs),
    retrieveSetupIntent: (id) => withinMs(gateway.retrieveSetupIntent(id), timeoutMs),
  };
}
