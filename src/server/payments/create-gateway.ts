import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { IN_MEMORY_DATA_DIR, type ServerConfig } from '../platform/config';
import { memoryChargeLedger, memoryLedger, openFileChargeLedger, openFileLedger } from './charge-ledger';
import type { PaymentGateway } from './gateway';
import { createStripeGateway } from './stripe/stripe-gateway';
import { createTestGateway } from './test-gateway';
import type { TestRefundRecord } from './test-refunds';
import { withGatewayTimeout } from './with-timeout';

/** File name of the test gateway's charge ledger in DATA_DIR (see charge-ledger.ts). */
export const TEST_GATEWAY_LEDGER_FILE = 'test-gateway-charges.jsonl';
/** File name of the test gateway's refund ledger in DATA_DIR (see test-refunds.ts; issue #32). */
export const TEST_GATEWAY_REFUNDS_FILE = 'test-gateway-refunds.jsonl';

/** The gateway the server charges through, and the function that releases what it holds (the ledger file). */
export interface GatewayHandle {
  gateway: PaymentGateway;
  close: () => Promise<void>;
}

/**
 * The payment gateway named by PAYMENT_GATEWAY (issue #2), every call bounded by GATEWAY_TIMEOUT_MS
 * (issue #3): `test` (the default) or `stripe` (issue #11, with config.stripe's keys).
 * The test gateway keeps its charges in DATA_DIR/{@link TEST_GATEWAY_LEDGER_FILE} and its refunds in
 * DATA_DIR/{@link TEST_GATEWAY_REFUNDS_FILE} (in memory when DATA_DIR is `memory://`), so what it charged and refunded
 * outlives the API process. Throws when a file cannot be opened.
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
      const inMemory = config.dataDir === IN_MEMORY_DATA_DIR;
      const ledger = inMemory ? memoryChargeLedger() : await openFileChargeLedger(path.join(config.dataDir, TEST_GATEWAY_LEDGER_FILE));
      const refundLedger = inMemory
        ? memoryLedger<TestRefundRecord>()
        : await openFileLedger<TestRefundRecord>(path.join(config.dataDir, TEST_GATEWAY_REFUNDS_FILE));
      return {
        gateway: withGatewayTimeout(createTestGateway({ ledger, refundLedger }), config.gatewayTimeoutMs),
        close: async () => {
          await Promise.all([ledger.close(), refundLedger.close()]);
        },
      };
    }
  }
}
