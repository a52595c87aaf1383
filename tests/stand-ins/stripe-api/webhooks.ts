/**
 * Webhook delivery of the Stripe API stand-in, after https://docs.stripe.com/webhooks: each Event is
 * POSTed as JSON to the endpoint with a `Stripe-Signature` header made by the SDK's own
 * `webhooks.generateTestHeaderString` (so `stripe.webhooks.constructEvent` verifies it). Stripe delivers
 * asynchronously, at least once and in no guaranteed order; the controls here reproduce that on demand.
 * Unlike Stripe, a failed delivery is not retried on a schedule: a test redelivers with `deliver()`.
 */
import Stripe from 'stripe';

/** One delivery attempt: the event, the endpoint's HTTP status, or the network error's message. */
export interface WebhookDelivery {
  eventId: string;
  type: string;
  status: number | null;
  error: string | null;
}

/** Where events go: the endpoint's URL and its signing secret (`whsec_...`); `enabledEvents` as on a Stripe endpoint (`['*']` for all). */
export interface WebhookEndpoint {
  url?: string;
  secret?: string;
  enabledEvents?: string[];
}

const signer = new Stripe('sk_test_stand_in_signer');

/** Sends events to one endpoint; holds, reorders and redelivers them on request. */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private endpoint: WebhookEndpoint;
  private held: Stripe.Event[] | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(endpoint: WebhookEndpoint) {
    this.endpoint = { ...endpoint };
  }

  /** Replaces the endpoint (fields left undefined are kept). */
  configure(endpoint: WebhookEndpoint): void {
    this.endpoint = {
      url: endpoint.url ?? this.endpoint.url,
      secret: endpoint.secret ?? this.endpoint.secret,
      enabledEvents: endpoint.enabledEvents ?? this.endpoint.enabledEvents,
    };
  }

  /** True when an event of this type goes to the endpoint. */
  wants(type: string): boolean {
    const enabled = this.endpoint.enabledEvents ?? ['*'];
    return Boolean(this.endpoint.url) && (enabled.includes('*') || enabled.includes(type));
  }

  /** Queues a new event: sent at once, or kept while deliveries are held. */
  enqueue(event: Stripe.Event): void {
    if (!this.wants(event.type)) return;
    if (this.held) this.held.push(event);
    else this.send(event);
  }

  /** Sends `event` `times` times (default 1) now, whatever its type and even while held. */
  deliver(event: Stripe.Event, times = 1): Promise<void> {
    for (let i = 0; i < times; i += 1) this.send(event);
    return this.settled();
  }

  /** Keeps new events until `release`. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends the held events in creation order or reversed, one after the other, and stops holding. */
  async release(order: 'created' | 'reverse'): Promise<void> {
    const events = this.held ?? [];
    this.held = null;
    if (order === 'reverse') events.reverse();
    for (const event of events) {
      this.send(event);
      await this.settled();
    }
  }

  /** Resolves when no delivery is in flight. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private send(event: Stripe.Event): void {
    const { url, secret } = this.endpoint;
    if (!url) return;
    const payload = JSON.stringify(event, null, 2);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'Cache-Control': 'no-cache',
      Accept: '*/*; q=0.5, application/xml',
    };
    if (secret) headers['Stripe-Signature'] = signer.webhooks.generateTestHeaderString({ payload, secret });
    const delivery: WebhookDelivery = { eventId: event.id, type: event.type, status: null, error: null };
    const attempt = fetch(url, { method: 'POST', headers, body: payload, signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        delivery.status = response.status;
        await response.arrayBuffer();
      })
      .catch((error: unknown) => {
        delivery.error = error instanceof Error ? error.message : String(error);
      })
      .finally(() => {
        this.deliveries.push(delivery);
        this.inFlight.delete(attempt);
      });
    this.inFlight.add(attempt);
  }
}
