/**
 * The card iframe of the Payment Element stand-in (served at `/elements-frame.html` by the API
 * stand-in). It renders Card number, Expiration date (MM / YY) and Security code with labels, checks
 * them as Stripe.js does (incomplete, invalid, past expiry), and on `confirm` sends the card straight
 * to the stand-in's confirm endpoint with the publishable key and client secret, so the site's page
 * never sees the number. A 3-D Secure challenge shows a small dialog with 'Complete authentication'
 * and 'Fail authentication', like Stripe's test 3DS page. The parent's origin comes in the URL hash.
 */
import type { ConfirmReply, FrameEvent, FrameMessage, FrameRequest, ParentMessage, StandInStripeError, SubmitReply } from './protocol.js';

const hash = new URLSearchParams(location.hash.slice(1));
const channel = hash.get('channel') ?? '';
const parentOrigin = hash.get('parentOrigin') ?? '';

function post(message: { kind: 'event'; payload: FrameEvent } | { kind: 'reply'; id: number; result: ConfirmReply | SubmitReply | null }): void {
  const envelope = { source: 'stripe-stand-in-frame', channel, ...message } as FrameMessage;
  window.parent.postMessage(envelope, parentOrigin);
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

interface Field {
  input: HTMLInputElement;
  error: HTMLParagraphElement;
  touched: boolean;
}

function field(id: string, label: string, attributes: Record<string, string>): Field & { wrapper: HTMLDivElement } {
  const wrapper = element('div', { class: 'field' });
  const input = element('input', { id, name: id, type: 'text', inputmode: 'numeric', 'aria-describedby': `${id}-error`, 'aria-invalid': 'false', ...attributes });
  const error = element('p', { id: `${id}-error`, class: 'error', 'aria-live': 'polite' });
  wrapper.append(element('label', { for: id }, label), input, error);
  return { wrapper, input, error, touched: false };
}

const root = document.getElementById('root') ?? document.body;
const number = field('card-number', 'Card number', { autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234', maxlength: '23' });
const expiry = field('card-expiry', 'Expiration date', { autocomplete: 'cc-exp', placeholder: 'MM / YY', maxlength: '7' });
const cvc = field('card-cvc', 'Security code', { autocomplete: 'cc-csc', placeholder: 'CVC', maxlength: '4' });
const row = element('div', { class: 'row' });
row.append(expiry.wrapper, cvc.wrapper);
root.append(number.wrapper, row);
const fields = [number, expiry, cvc];

const digitsOf = (value: string): string => value.replace(/\D/g, '');

function expectedLength(digits: string): number {
  if (/^3[47]/.test(digits)) return 15;
  if (/^3[0689]/.test(digits)) return 14;
  return 16;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Stripe.js's validation of one field: its `validation_error` or null. Messages are Stripe.js's own. */
function validate(target: Field): StandInStripeError | null {
  const value = digitsOf(target.input.value);
  const fail = (code: string, message: string): StandInStripeError => ({ type: 'validation_error', code, message });
  if (target === number) {
    if (value.length < expectedLength(value)) return fail('incomplete_number', 'Your card number is incomplete.');
    if (!luhn(value)) return fail('invalid_number', 'Your card number is invalid.');
  } else if (target === expiry) {
    if (value.length < 4) return fail('incomplete_expiry', "Your card's expiration date is incomplete.");
    const month = Number(value.slice(0, 2));
    const year = 2000 + Number(value.slice(2, 4));
    const now = new Date();
    if (month < 1 || month > 12) return fail('invalid_expiry_month', "Your card's expiration date is invalid.");
    if (year < now.getFullYear()) return fail('invalid_expiry_year_past', "Your card's expiration year is in the past.");
    if (year === now.getFullYear() && month < now.getMonth() + 1) return fail('invalid_expiry_month_past', "Your card's expiration date is in the past.");
  } else if (value.length < (/^3[47]/.test(digitsOf(number.input.value)) ? 4 : 3)) {
    return fail('incomplete_cvc', "Your card's security code is incomplete.");
  }
  return null;
}

function show(target: Field, error: StandInStripeError | null): void {
  target.error.textContent = error?.message ?? '';
  target.input.setAttribute('aria-invalid', String(Boolean(error)));
}

function reportChange(): void {
  post({ kind: 'event', payload: { event: 'change', complete: fields.every((item) => !validate(item)), empty: fields.every((item) => item.input.value === '') } });
}

number.input.addEventListener('input', () => {
  const digits = digitsOf(number.input.value).slice(0, 19);
  number.input.value = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  if (number.touched) show(number, validate(number));
  reportChange();
});
expiry.input.addEventListener('input', (event) => {
  const digits = digitsOf(expiry.input.value).slice(0, 4);
  const deleting = (event as InputEvent).inputType?.startsWith('delete');
  expiry.input.value = digits.length > 2 || (digits.length === 2 && !deleting) ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
  if (expiry.touched) show(expiry, validate(expiry));
  reportChange();
});
cvc.input.addEventListener('input', () => {
  cvc.input.value = digitsOf(cvc.input.value).slice(0, 4);
  if (cvc.touched) show(cvc, validate(cvc));
  reportChange();
});
for (const item of fields) {
  item.input.addEventListener('focus', () => post({ kind: 'event', payload: { event: 'focus' } }));
  item.input.addEventListener('blur', () => {
    if (item.input.value !== '') {
      item.touched = true;
      show(item, validate(item));
    }
    post({ kind: 'event', payload: { event: 'blur' } });
  });
  item.input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') post({ kind: 'event', payload: { event: 'escape' } });
  });
}

/** Validates every field, shows the errors and focuses the first wrong field. */
function submit(): SubmitReply {
  let first: StandInStripeError | null = null;
  for (const item of fields) {
    item.touched = true;
    const error = validate(item);
    show(item, error);
    if (error && !first) {
      first = error;
      item.input.focus();
    }
  }
  return first ? { error: first } : {};
}

const apiOrigin = location.origin;

async function api(method: 'GET' | 'POST', path: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams(fields).toString();
  const response =
    method === 'GET'
      ? await fetch(`${apiOrigin}${path}?${form}`)
      : await fetch(`${apiOrigin}${path}`, { method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function intentPath(kind: 'payment' | 'setup', clientSecret: string): string {
  const id = clientSecret.split('_secret_')[0] ?? '';
  return `/v1/${kind === 'payment' ? 'payment_intents' : 'setup_intents'}/${id}`;
}

function toReply(result: { status: number; body: Record<string, unknown> }): ConfirmReply {
  if (result.status >= 400 || 'error' in result.body) {
    const error = (result.body.error ?? { type: 'api_error', message: 'Unexpected answer.' }) as StandInStripeError;
    return { error };
  }
  return { intent: result.body };
}

async function confirm(request: Extract<FrameRequest, { method: 'confirm' }>): Promise<ConfirmReply> {
  const invalid = submit().error;
  if (invalid) return { error: invalid };
  const digits = digitsOf(expiry.input.value);
  const result = await api('POST', `${intentPath(request.intentKind, request.clientSecret)}/confirm`, {
    key: request.publishableKey,
    client_secret: request.clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': digitsOf(number.input.value),
    'payment_method_data[card][exp_month]': digits.slice(0, 2),
    'payment_method_data[card][exp_year]': digits.slice(2, 4),
    'payment_method_data[card][cvc]': cvc.input.value,
    use_stripe_sdk: 'true',
    ...request.fields,
  });
  return toReply(result);
}

/** Shows the 3-D Secure dialog, posts the donor's answer, then reads the intent again. */
async function challenge(request: Extract<FrameRequest, { method: 'challenge' }>): Promise<ConfirmReply> {
  const id = request.clientSecret.split('_secret_')[0] ?? '';
  const dialog = element('dialog', { 'aria-labelledby': 'three-ds-title' });
  const title = element('h2', { id: 'three-ds-title' }, '3D Secure authentication');
  const text = element('p', {}, 'Stripe stand-in: this test payment requires authentication.');
  const complete = element('button', { type: 'button' }, 'Complete authentication');
  const fail = element('button', { type: 'button' }, 'Fail authentication');
  dialog.append(title, text, complete, fail);
  document.body.append(dialog);
  dialog.show();
  complete.focus();
  const outcome = await new Promise<'complete' | 'fail'>((resolve) => {
    complete.addEventListener('click', () => resolve('complete'), { once: true });
    fail.addEventListener('click', () => resolve('fail'), { once: true });
    dialog.addEventListener('cancel', () => resolve('fail'), { once: true });
  });
  dialog.close();
  dialog.remove();
  const answered = await api('POST', `/_stand-in/3ds/${id}`, { outcome, client_secret: request.clientSecret });
  if (answered.status >= 400) return toReply(answered);
  return toReply(await api('GET', intentPath(request.intentKind, request.clientSecret), { key: request.publishableKey, client_secret: request.clientSecret }));
}

async function handle(request: FrameRequest): Promise<ConfirmReply | SubmitReply | null> {
  switch (request.method) {
    case 'submit':
      return submit();
    case 'confirm':
      return confirm(request);
    case 'challenge':
      return challenge(request);
    case 'clear':
      for (const item of fields) {
        item.input.value = '';
        item.touched = false;
        show(item, null);
      }
      reportChange();
      return null;
    case 'focus':
      number.input.focus();
      return null;
    case 'blur':
      (document.activeElement as HTMLElement | null)?.blur();
      return null;
    case 'update':
      for (const item of fields) item.input.readOnly = Boolean(request.options.readOnly);
      return null;
    case 'collapse':
      return null;
  }
}

window.addEventListener('message', (event: MessageEvent<ParentMessage>) => {
  if (event.origin !== parentOrigin || event.source !== window.parent) return;
  const message = event.data;
  if (message?.source !== 'stripe-stand-in-parent' || message.channel !== channel) return;
  handle(message.request).then(
    (result) => post({ kind: 'reply', id: message.id, result }),
    (error: unknown) => post({ kind: 'reply', id: message.id, result: { error: { type: 'api_connection_error', message: String(error) } } }),
  );
});

new ResizeObserver(() => post({ kind: 'event', payload: { event: 'resize', height: Math.ceil(document.documentElement.scrollHeight) } })).observe(document.body);
post({ kind: 'event', payload: { event: 'ready' } });
