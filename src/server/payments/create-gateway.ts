import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { IN_MEMORY_DATA_DIR, type ServerConfig } from '../platform/config';
import { memoryChargeLedger, openFileChargeLedger } from './charge-ledger';
import type { PaymentGateway } from './gateway';
import { createStripeGateway } from './stripe/stripe-gateway';
import { createTestGateway } from './test-gateway';
import { withGatewayTimeout } from './with-timeout';

/** File name of the test gateway's charge ledger in DATA_DIR (see charge-ledger.ts). */
export const TEST_GATEWAY_LEDGER_FILE = 'test-gateway-charges.jsonl';

/** The gateway the server charges through, and the function that releases what it holds (the ledger file). */
export interface GatewayHandle {
  gateway: PaymentGateway;
  close: () => Promise<void>;
}

/**
 * The payment gateway named by PAYMENT_GATEWAY (issue #2), every call bounded by GATEWAY_TIMEOUT_MS
 * (issue #3): `test` (the default) or `stripe` (issue #11, with config.stripe's keys).
 * The test gateway keeps its charges in DATA_DIR/{@link TEST_GATEWAY_LEDGER_FILE} (in memory when DATA_DIR
 * is `memory://`), so what it charged outlives the API process. Throws when that file cannot be opened.
 */
export async function createGateway(
  config: Pick<ServerConfig, 'paymentGateway' | 'dataDir' | 'gatewayTimeoutMs' | 'stripe'>,
): Promise<GatewayHandle> {
  switch (config.paymentGateway) {
    case 'stripe': {
      if (!config.stripe) throw new Error('PAYMENT_GATEWAY=stripe without its settings');
      const gateway = createStripeGateway({ ...config.stripe, timeoutMs: config.gatewayTimeoutMs });
      return { gateway: withGatewayTimeout(gateway, config.gatewayTimeoutMs), close: async () => undefined };
    }
    case 'test': {
      if (config.dataDir !== IN_MEMORY_DATA_DIR) await mkdir(config.dataDir, { recursive: true });
      const ledger =
        config.dataDir === IN_MEMORY_DATA_DIR
          ? memoryChargeLedger()
          : await openFileChargeLedger(path.join(config.dataDir, TEST_GATEWAY_LEDGER_FILE));
      return {
        gateway: withGatewayTimeout(createTestGateway({ ledger }), config.gatewayTimeoutMs),
        close: () => ledger.close(),
      };
    }
  }
}
