/**
 * Stand-in of Stripe.js (https://js.stripe.com/<release>/stripe.js, https://docs.stripe.com/js) for
 * offline tests, served by the API stand-in at `/v3/stripe.js`; it talks to the API stand-in at the
 * origin it was loaded from. It defines `window.Stripe` with `version = 'endive'`, the release train
 * `@stripe/stripe-js` 10 expects, so `loadStripe` uses it without a warning when the page loads it first.
 *
 * Reproduced (what @stripe/react-stripe-js and a Payment Element form call):
 * - `Stripe(publishableKey, options)`; `_registerWrapper`, `registerAppInfo`;
 * - `stripe.elements({mode, amount, currency, setupFutureUsage, clientSecret, appearance, ...})` with
 *   `create('payment')`, `getElement`, `update`, `submit()` (validates the card fields: `{}` or
 *   `{error: {type: 'validation_error', code, message}}`, Stripe.js's wording), `fetchUpdates`;
 * - the Payment Element: `mount(node | selector)`, `unmount`, `destroy`, `update`, `on/off/once`
 *   ('ready', 'change' `{elementType, complete, empty, collapsed, value: {type: 'card'}}`, 'focus', 'blur',
 *   'escape'), `focus`, `blur`, `clear`, `collapse`; card fields in an iframe of the API stand-in's origin;
 * - `confirmPayment` / `confirmSetup` without `elements`, `({clientSecret, confirmParams: {payment_method}, redirect})`:
 *   an intent confirmed with an existing (saved) PaymentMethod, 3-D Secure in an overlay frame titled
 *   '3D Secure authentication' (the off-session `authentication_required` recovery);
 * - `confirmPayment` / `confirmSetup` `({elements, clientSecret, confirmParams, redirect})`: Stripe's
 *   IntegrationErrors (no `return_url` without `redirect: 'if_required'`, `elements.submit()` not called
 *   first in deferred mode), then `{paymentIntent}` / `{setupIntent}` or `{error}` with Stripe's codes and
 *   messages; 3-D Secure in the frame; with `redirect` other than 'if_required', success navigates to
 *   `return_url?payment_intent=...&payment_intent_client_secret=...&redirect_status=succeeded`;
 * - `retrievePaymentIntent`, `retrieveSetupIntent`, `handleNextAction({clientSecret})`.
 * Not reproduced: other Elements (card, address, express checkout, Link), wallets and payment methods
 * other than cards, `appearance` styling and locales (accepted, ignored), `createPaymentMethod`,
 * `createToken`, `confirmCardPayment` (present for react-stripe-js's checks; they answer an error),
 * Radar fraud signals (m.stripe.com), the intents' amount checks against `elements({amount})`.
 */
import type { ConfirmReply, FrameEvent, FrameMessage, FrameRequest, ParentMessage, StandInStripeError, SubmitReply } from './protocol.js';

const currentScript = document.currentScript as HTMLScriptElement | null;
const apiOrigin = currentScript?.src ? new URL(currentScript.src).origin : location.origin;

/** Stripe.js throws this (name `IntegrationError`) for calls that can never work. */
class IntegrationError extends Error {
  override name = 'IntegrationError';
}

type Handler = (payload: unknown) => void;

/** `on`, `off` and `once` of Stripe Elements. */
class Emitter {
  private readonly handlers = new Map<string, Set<Handler>>();

  on(event: string, handler: Handler): this {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return this;
  }

  off(event: string, handler?: Handler): this {
    if (handler) this.handlers.get(event)?.delete(handler);
    else this.handlers.delete(event);
    return this;
  }

  once(event: string, handler: Handler): this {
    const wrapped: Handler = (payload) => {
      this.off(event, wrapped);
      handler(payload);
    };
    return this.on(event, wrapped);
  }

  protected emit(event: string, payload: unknown): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) handler(payload);
  }
}

let channelCount = 0;

/** One card iframe and its message channel. */
class FrameChannel {
  readonly iframe: HTMLIFrameElement;
  private readonly channel = `stand-in-${Date.now().toString(36)}-${(channelCount += 1)}`;
  private nextId = 1;
  private readonly pending = new Map<number, (result: ConfirmReply | SubmitReply | null) => void>();
  private readonly ready: Promise<void>;
  private readonly listener: (event: MessageEvent<FrameMessage>) => void;

  constructor(title: string, onEvent: (event: FrameEvent) => void) {
    this.iframe = document.createElement('iframe');
    this.iframe.title = title;
    this.iframe.name = this.channel;
    this.iframe.setAttribute('frameborder', '0');
    this.iframe.setAttribute('allow', 'payment *');
    this.iframe.style.cssText = 'border: none; width: 100%; display: block; height: 190px; overflow: hidden;';
    this.iframe.src = `${apiOrigin}/elements-frame.html#${new URLSearchParams({ channel: this.channel, parentOrigin: location.origin })}`;
    let markReady: () => void = () => undefined;
    this.ready = new Promise<void>((resolve) => (markReady = resolve));
    this.listener = (event) => {
      if (event.origin !== apiOrigin || event.source !== this.iframe.contentWindow) return;
      const message = event.data;
      if (message?.source !== 'stripe-stand-in-frame' || message.channel !== this.channel) return;
      if (message.kind === 'reply') {
        this.pending.get(message.id)?.(message.result);
        this.pending.delete(message.id);
        return;
      }
      if (message.payload.event === 'ready') markReady();
      if (message.payload.event === 'resize') this.iframe.style.height = `${message.payload.height}px`;
      onEvent(message.payload);
    };
    window.addEventListener('message', this.listener);
  }

  /** Sends `request` once the frame is ready; resolves with its reply. */
  async request<T extends ConfirmReply | SubmitReply | null>(request: FrameRequest): Promise<T> {
    await this.ready;
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, resolve as (result: ConfirmReply | SubmitReply | null) => void);
      const message: ParentMessage = { source: 'stripe-stand-in-parent', channel: this.channel, id, request };
      this.iframe.contentWindow?.postMessage(message, apiOrigin);
    });
  }

  dispose(): void {
    window.removeEventListener('message', this.listener);
    this.iframe.remove();
    for (const resolve of this.pending.values()) resolve({ error: { type: 'api_connection_error', message: 'The Element was unmounted.' } });
    this.pending.clear();
  }
}

interface ElementsOptions {
  mode?: 'payment' | 'setup' | 'subscription';
  amount?: number;
  currency?: string;
  setupFutureUsage?: string | null;
  clientSecret?: string;
  [option: string]: unknown;
}

/** The Payment Element. */
class PaymentElement extends Emitter {
  frame: FrameChannel | null = null;
  destroyed = false;
  complete = false;

  constructor(
    private readonly group: ElementsGroup,
    private options: Record<string, unknown>,
  ) {
    super();
  }

  mount(target: HTMLElement | string): void {
    if (this.destroyed) throw new IntegrationError('This Element has already been destroyed. Please create a new one.');
    if (this.frame) throw new IntegrationError('This Element is already mounted. Use `unmount()` to unmount the Element before re-mounting.');
    const container = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
    if (!container) throw new IntegrationError(`The selector you specified (${String(target)}) applies to no DOM elements that are currently on the page.`);
    const wrapper = document.createElement('div');
    wrapper.className = '__PrivateStripeElement';
    this.frame = new FrameChannel('Secure payment input frame', (event) => this.onFrameEvent(event));
    wrapper.append(this.frame.iframe);
    container.append(wrapper);
    if (this.options.readOnly) void this.frame.request({ method: 'update', options: { readOnly: true } });
  }

  private onFrameEvent(event: FrameEvent): void {
    switch (event.event) {
      case 'ready':
        this.emit('ready', { elementType: 'payment' });
        break;
      case 'change':
        this.complete = event.complete;
        this.group.invalidateSubmit();
        this.emit('change', { elementType: 'payment', complete: event.complete, empty: event.empty, collapsed: false, value: { type: 'card' } });
        break;
      case 'focus':
      case 'blur':
      case 'escape':
        this.emit(event.event, { elementType: 'payment' });
        break;
      case 'resize':
        break;
    }
  }

  unmount(): void {
    const wrapper = this.frame?.iframe.parentElement;
    this.frame?.dispose();
    wrapper?.remove();
    this.frame = null;
  }

  destroy(): void {
    this.unmount();
    this.destroyed = true;
    this.group.forget(this);
  }

  update(options: Record<string, unknown>): void {
    this.options = { ...this.options, ...options };
    if ('readOnly' in options) void this.frame?.request({ method: 'update', options: { readOnly: Boolean(options.readOnly) } });
  }

  focus(): void {
    void this.frame?.request({ method: 'focus' });
  }

  blur(): void {
    void this.frame?.request({ method: 'blur' });
  }

  clear(): void {
    void this.frame?.request({ method: 'clear' });
  }

  collapse(): void {
    void this.frame?.request({ method: 'collapse' });
  }
}

/** The Elements group that `stripe.elements(options)` returns. */
class ElementsGroup {
  element: PaymentElement | null = null;
  private submitted = false;

  constructor(public options: ElementsOptions) {}

  create(type: string, options: Record<string, unknown> = {}): PaymentElement {
    if (type !== 'payment') throw new IntegrationError(`The stand-in of Stripe.js supports only the Payment Element, not '${type}'.`);
    if (this.element) throw new IntegrationError('Can only create one Element of type payment.');
    if (!this.options.clientSecret && !this.options.mode) throw new IntegrationError('In order to create a payment element, you must pass a valid PaymentIntent or SetupIntent client secret, or a mode when creating the Elements group.');
    this.element = new PaymentElement(this, options);
    return this.element;
  }

  getElement(type: string): PaymentElement | null {
    return type === 'payment' ? this.element : null;
  }

  update(options: Partial<ElementsOptions>): void {
    this.options = { ...this.options, ...options };
  }

  fetchUpdates(): Promise<Record<string, never>> {
    return Promise.resolve({});
  }

  /** Validates the Payment Element's fields; `{selectedPaymentMethod: 'card'}` or `{error}` (https://docs.stripe.com/js/elements/submit). */
  async submit(): Promise<SubmitReply & { selectedPaymentMethod?: string }> {
    const frame = this.element?.frame;
    if (!frame) throw new IntegrationError('elements.submit(): the Payment Element must be mounted before calling submit.');
    const reply = await frame.request<SubmitReply>({ method: 'submit' });
    this.submitted = !reply.error;
    return reply.error ? reply : { selectedPaymentMethod: 'card' };
  }

  /** The deferred flow requires a fresh successful `submit()` before a confirmation. */
  checkSubmitted(call: string): void {
    if (this.options.mode && !this.submitted) {
      throw new IntegrationError(
        `elements.submit() must be called before ${call}. Call elements.submit() as soon as your customer presses pay, prior to any asynchronous work. Integration guide: https://stripe.com/docs/payments/accept-a-payment-deferred`,
      );
    }
  }

  invalidateSubmit(): void {
    this.submitted = false;
  }

  forget(element: PaymentElement): void {
    if (this.element === element) this.element = null;
  }
}

/** Flattens `{a: {b: 'c'}}` into `{'a[b]': 'c'}` (Stripe's form encoding). */
function flatten(value: unknown, prefix: string, out: Record<string, string>): Record<string, string> {
  if (value === undefined || value === null) return out;
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) flatten(item, prefix ? `${prefix}[${key}]` : key, out);
  } else out[prefix] = String(value);
  return out;
}

interface ConfirmOptions {
  elements?: ElementsGroup;
  clientSecret?: string;
  confirmParams?: { return_url?: string; [param: string]: unknown };
  redirect?: 'always' | 'if_required';
}

type IntentResult = { paymentIntent: Record<string, unknown> } | { setupIntent: Record<string, unknown> } | { error: StandInStripeError };

function secretOf(clientSecret: unknown, kind: 'payment' | 'setup'): string {
  const prefix = kind === 'payment' ? 'pi_' : 'seti_';
  if (typeof clientSecret !== 'string' || !clientSecret.startsWith(prefix) || !clientSecret.includes('_secret_')) {
    throw new IntegrationError(`Invalid value for ${kind === 'payment' ? 'confirmPayment' : 'confirmSetup'}: clientSecret should be a ${kind === 'payment' ? 'PaymentIntent' : 'SetupIntent'} client secret. You specified: ${String(clientSecret)}.`);
  }
  return clientSecret;
}

async function retrieve(publishableKey: string, kind: 'payment' | 'setup', clientSecret: string): Promise<ConfirmReply> {
  const id = clientSecret.split('_secret_')[0] ?? '';
  const query = new URLSearchParams({ key: publishableKey, client_secret: clientSecret });
  try {
    const response = await fetch(`${apiOrigin}/v1/${kind === 'payment' ? 'payment_intents' : 'setup_intents'}/${id}?${query}`);
    const body = (await response.json()) as Record<string, unknown>;
    return response.ok ? { intent: body } : { error: body.error as StandInStripeError };
  } catch (error) {
    return { error: { type: 'api_connection_error', message: String(error) } };
  }
}

/** POSTs `fields` (form-encoded, with the publishable key) to the API stand-in's `/v1/<path>`, as Stripe.js does from the page. */
async function post(path: string, fields: Record<string, string>): Promise<ConfirmReply> {
  try {
    const response = await fetch(`${apiOrigin}/v1/${path}`, { method: 'POST', body: new URLSearchParams(fields) });
    const body = (await response.json()) as Record<string, unknown>;
    return response.ok ? { intent: body } : { error: body.error as StandInStripeError };
  } catch (error) {
    return { error: { type: 'api_connection_error', message: String(error) } };
  }
}

/** Runs the 3-D Secure challenge in `frame`, or in a temporary overlay frame when none is mounted. */
async function challenge(publishableKey: string, kind: 'payment' | 'setup', clientSecret: string, frame: FrameChannel | null): Promise<ConfirmReply> {
  if (frame) return frame.request<ConfirmReply>({ method: 'challenge', intentKind: kind, clientSecret, publishableKey });
  const overlay = new FrameChannel('3D Secure authentication', () => undefined);
  overlay.iframe.style.cssText = 'position: fixed; inset: 20% 10% auto; width: 80%; height: 240px; border: 1px solid #8a8a8a; background: #fff; z-index: 2147483647;';
  document.body.append(overlay.iframe);
  try {
    return await overlay.request<ConfirmReply>({ method: 'challenge', intentKind: kind, clientSecret, publishableKey });
  } finally {
    overlay.dispose();
  }
}

function toResult(kind: 'payment' | 'setup', reply: ConfirmReply): IntentResult {
  if ('error' in reply) return { error: reply.error };
  const intent = reply.intent;
  const lastError = (kind === 'payment' ? intent.last_payment_error : intent.last_setup_error) as StandInStripeError | null | undefined;
  if (intent.status === 'requires_payment_method' && lastError) {
    return { error: { ...lastError, [kind === 'payment' ? 'payment_intent' : 'setup_intent']: intent } };
  }
  return kind === 'payment' ? { paymentIntent: intent } : { setupIntent: intent };
}

/** `window.Stripe(publishableKey, options)`: a Stripe instance bound to the API stand-in. */
function createStripe(publishableKey: unknown, _options?: Record<string, unknown>): Record<string, unknown> {
  if (typeof publishableKey !== 'string' || !publishableKey.startsWith('pk_')) {
    throw new IntegrationError(`Invalid value for Stripe(): apiKey should be a publishable key (pk_...). You specified: ${String(publishableKey)}.`);
  }
  const key = publishableKey;
  const wrappers: unknown[] = [];

  /**
   * Sends the confirmation of the intent of `clientSecret`: through the Payment Element's frame (its card fields), or,
   * without `elements` (https://docs.stripe.com/js/payment_intents/confirm_payment), straight from the page with an
   * existing PaymentMethod (`confirmParams.payment_method`, or the one the intent has; no card data involved), as
   * Stripe.js brings an off-session payment's customer back on-session (https://docs.stripe.com/payments/save-and-reuse).
   * Then 3-D Secure in the frame, or in an overlay frame without one.
   */
  async function send(kind: 'payment' | 'setup', clientSecret: string, fields: Record<string, string>, frame: FrameChannel | null): Promise<ConfirmReply> {
    const reply = frame
      ? await frame.request<ConfirmReply>({ method: 'confirm', intentKind: kind, clientSecret, publishableKey: key, fields })
      : await post(`${kind === 'payment' ? 'payment_intents' : 'setup_intents'}/${clientSecret.split('_secret_')[0] ?? ''}/confirm`, {
          key,
          client_secret: clientSecret,
          use_stripe_sdk: 'true',
          ...fields,
        });
    return 'intent' in reply && reply.intent.status === 'requires_action' ? challenge(key, kind, clientSecret, frame) : reply;
  }

  /** The frame of the mounted Payment Element of `elements` after Stripe.js's checks, or null without `elements` (a `clientSecret` is then required). */
  function frameOf(kind: 'payment' | 'setup', call: string, options: ConfirmOptions): FrameChannel | null {
    const elements = options.elements;
    if (elements === undefined && options.clientSecret !== undefined) return null;
    if (!(elements instanceof ElementsGroup)) throw new IntegrationError(`${call}: expected an \`elements\` group with a mounted Payment Element, or a \`clientSecret\`.`);
    const frame = elements.element?.frame;
    if (!frame) throw new IntegrationError(`${call}: the Payment Element must be mounted before confirming.`);
    const mode = elements.options.mode;
    if (mode && (mode === 'setup') !== (kind === 'setup')) {
      throw new IntegrationError(`${call}: this Elements group was created with mode '${mode}'; use ${kind === 'setup' ? 'stripe.confirmPayment()' : 'stripe.confirmSetup()'}.`);
    }
    elements.checkSubmitted(call);
    return frame;
  }

  async function confirm(kind: 'payment' | 'setup', options: ConfirmOptions): Promise<IntentResult> {
    const call = kind === 'payment' ? 'stripe.confirmPayment()' : 'stripe.confirmSetup()';
    const frame = frameOf(kind, call, options);
    const clientSecret = secretOf(options.clientSecret ?? options.elements?.options.clientSecret, kind);
    const redirect = options.redirect ?? 'always';
    const { return_url: returnUrl, ...rest } = options.confirmParams ?? {};
    if (redirect !== 'if_required' && !returnUrl) throw new IntegrationError(`${call}: the \`confirmParams.return_url\` argument is required unless passing \`redirect: 'if_required'\``);
    const fields = flatten(rest, '', {});
    if (returnUrl) fields.return_url = returnUrl;
    const result = toResult(kind, await send(kind, clientSecret, fields, frame));
    if ('error' in result || redirect === 'if_required' || !returnUrl) return result;
    const target = new URL(returnUrl);
    const id = clientSecret.split('_secret_')[0] ?? '';
    target.searchParams.set(kind === 'payment' ? 'payment_intent' : 'setup_intent', id);
    target.searchParams.set(kind === 'payment' ? 'payment_intent_client_secret' : 'setup_intent_client_secret', clientSecret);
    target.searchParams.set('redirect_status', 'succeeded');
    location.assign(target.toString());
    return new Promise<IntentResult>(() => undefined);
  }

  const unsupported = (name: string) => async () => ({ error: { type: 'invalid_request_error', message: `The stand-in of Stripe.js does not implement ${name}.` } satisfies StandInStripeError });

  return {
    _registerWrapper: (wrapper: unknown) => void wrappers.push(wrapper),
    registerAppInfo: (info: unknown) => void wrappers.push(info),
    elements: (options: ElementsOptions = {}) => new ElementsGroup({ ...options }),
    confirmPayment: (options: ConfirmOptions) => confirm('payment', options),
    confirmSetup: (options: ConfirmOptions) => confirm('setup', options),
    retrievePaymentIntent: async (clientSecret: string) => toResult('payment', await retrieve(key, 'payment', secretOf(clientSecret, 'payment'))),
    retrieveSetupIntent: async (clientSecret: string) => toResult('setup', await retrieve(key, 'setup', secretOf(clientSecret, 'setup'))),
    handleNextAction: async ({ clientSecret }: { clientSecret: string }) => {
      const kind = typeof clientSecret === 'string' && clientSecret.startsWith('seti_') ? 'setup' : 'payment';
      const current = await retrieve(key, kind, secretOf(clientSecret, kind));
      if ('error' in current || current.intent.status !== 'requires_action') return toResult(kind, current);
      return toResult(kind, await challenge(key, kind, clientSecret, null));
    },
    createPaymentMethod: unsupported('createPaymentMethod'),
    createToken: unsupported('createToken'),
    confirmCardPayment: unsupported('confirmCardPayment'),
  };
}

Object.assign(window, { Stripe: Object.assign(createStripe, { version: 'endive' }) });
