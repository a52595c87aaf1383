import type { ServerConfig } from '../config';
import type { PaymentGateway } from './gateway';
import { createTestGateway } from './test-gateway';

/**
 * The payment gateway named by PAYMENT_GATEWAY (issue #2). Only `test` exists so far; Stripe comes in
 * a later issue behind the same {@link PaymentGateway} interface. The config schema already rejects
 * unknown names, so this never throws today.
 */
export function createGateway(config: Pick<ServerConfig, 'paymentGateway'>): PaymentGateway {
  switch (config.paymentGateway) {
    case 'test':
      return createTestGateway();
  }
}
