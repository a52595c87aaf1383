import { EMBED_FRAME_ID_PARAM, embedMessage, type EmbedMessage, type FrameEvent } from '../../../shared/embed-protocol';
import { EMBED_PATH_PREFIX } from '../../../shared/embed-path-prefix';
import { acceptFrameEvent } from './accept-frame-event';

/**
 * `<PUBLIC_URL>/embed.js` (issue #35; decision 0104): defines `<reef-donate>`, built alone by scripts/build-embed.ts
 * (no framework, nothing of the site's bundle, at most 3 kB gzip). Modes:
 * - `form` (default): the donation flow in a frame in place, as tall as its screen (`resize` messages), with a reserved
 *   starting height (the first screen's, for the element's width: reservedHeightPx);
 * - `button`: a button (`label`, default "Donate") opening the flow in a modal `<dialog>` (focus kept inside, Esc and a
 *   close button close it, focus back on the button, the page not scrolling behind); where the frame cannot be shown
 *   (origin not in EMBED_ORIGINS, or the host's CSP forbids our frame) the button opens /donate in a new tab;
 * - `goal`: a campaign's goal bar in plain markup (GET /api/campaigns/<slug>/goal-bar, CORS).
 * Attributes `campaign`, `amount`, `frequency`, `cause` are passed to the page as the campaign link's parameters, which
 * the page checks as it checks a link's (issue #23); `lang` is `en` or `es`.
 * Events on the element (bubbling, composed): `reef-donate:ready`, `reef-donate:resize` ({heightPx}),
 * `reef-donate:completed` ({amount (dollars), frequency, campaign, currency}), `reef-donate:closed`.
 * Messages are taken only from the site's origin (where this script was loaded from) and from the element's own frame,
 * in the format of src/shared/embed-protocol.ts; anything else is ignored.
 */

/** The site's origin: where this script was loaded from (PUBLIC_URL). */
const SITE = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? location.href).origin;
/**
 * The first screen's height in the frame by the frame's width, in CSS px: [width, height] pairs measured in Chromium on
 * the English landing screen (hero and selection card; MUI's layout changes at 600 px), from narrowest to widest.
 */
const FIRST_SCREEN_HEIGHTS: [widthPx: number, heightPx: number][] = [[300, 1958], [320, 1854], [340, 1718], [380, 1610], [420, 1516], [480, 1412], [560, 1308], [599, 1275], [600, 1399], [640, 1372], [740, 1308], [820, 1280]];

/**
 * The height reserved for the frame before its first `resize` message (issue #35: "a reserved starting height so the
 * host page does not jump"), in CSS px, for a frame `widthPx` wide: the first screen's measured height, interpolated
 * between the measured widths. Another system font, the Spanish texts or a campaign's hero move it by a few lines.
 */
export function reservedHeightPx(widthPx: number): number {
  let [fromWidth, fromHeight] = FIRST_SCREEN_HEIGHTS[0]!;
  for (const [toWidth, toHeight] of FIRST_SCREEN_HEIGHTS) {
    if (widthPx <= toWidth) return Math.round(toWidth === fromWidth ? toHeight : fromHeight + ((toHeight - fromHeight) * (widthPx - fromWidth)) / (toWidth - fromWidth));
    [fromWidth, fromHeight] = [toWidth, toHeight];
  }
  return fromHeight;
}
/** Button mode's dialog: at most this wide, in CSS px (the frame inside it is reserved a first screen of that width). */
const DIALOG_MAX_WIDTH_PX = 720;
const LINK_PARAMS = ['campaign', 'amount', 'frequency', 'cause'] as const;
const TEXTS = {
  en: { donate: 'Donate', close: 'Close', frame: 'Donation form', dialog: 'Donate', fallback: 'Donate on our website', goal: 'Campaign goal' },
  es: { donate: 'Donar', close: 'Cerrar', frame: 'Formulario de donación', dialog: 'Donar', fallback: 'Donar en nuestro sitio web', goal: 'Meta de la campaña' },
};

const frames = new Map<string, ReefDonate>();

/** Sets `style` properties through the CSSOM (allowed under a host CSP without `unsafe-inline`). */
const css = (element: HTMLElement, style: Partial<CSSStyleDeclaration>) => Object.assign(element.style, style);
const make = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string) => {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  return element;
};

/** `<reef-donate>`: see the module comment. */
class ReefDonate extends HTMLElement {
  private readonly frameId = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => (byte % 36).toString(36)).join('') + 'rd';
  private frame?: HTMLIFrameElement;
  private dialog?: HTMLDialogElement;
  private button?: HTMLButtonElement;
  private frameable = false;
  private started = false;
  private overflow = '';

  get frameWindow(): unknown {
    return this.frame?.contentWindow;
  }

  private get texts() {
    return this.getAttribute('lang') === 'es' ? TEXTS.es : TEXTS.en;
  }

  /** The page to frame (`/embed/...`) or to open (`/...`), with the link's parameters. */
  private url(framed: boolean, path = '/donate'): string {
    const url = new URL(`${framed ? EMBED_PATH_PREFIX : ''}${this.getAttribute('lang') === 'es' ? '/es' : ''}${path}`, SITE);
    for (const name of LINK_PARAMS) {
      const value = this.getAttribute(name);
      if (value) url.searchParams.set(name, value);
    }
    if (framed) url.searchParams.set(EMBED_FRAME_ID_PARAM, this.frameId);
    return url.href;
  }

  connectedCallback(): void {
    if (this.started) return;
    this.started = true;
    const root = this.attachShadow({ mode: 'open' });
    const mode = this.getAttribute('mode');
    if (mode === 'goal') {
      void this.goal(root);
      return;
    }
    frames.set(this.frameId, this);
    const link = make('a', this.texts.fallback);
    link.href = this.url(false);
    link.target = '_blank';
    link.rel = 'noopener';
    if (mode === 'button') {
      const button = (this.button = make('button', this.getAttribute('label') || this.texts.donate));
      button.type = 'button';
      css(button, { font: 'inherit', padding: '10px 20px', minHeight: '44px', border: '0', borderRadius: '4px', background: '#00695c', color: '#fff', cursor: 'pointer' });
      button.onclick = () => this.open();
      root.append(button);
    } else {
      // NOTE: with the README's snippet (this script before the element, not deferred) this runs as the parser meets
      // the element, before the host page's first layout of what follows it: nothing below it moves. Two steps: the
      // width the reservation is for is read once the element is a block.
      css(this, { display: 'block' });
      css(this, { minHeight: `${reservedHeightPx(this.clientWidth)}px` });
    }
    // May this page frame ours? The browser withholds the answer from any origin not in EMBED_ORIGINS (CORS).
    fetch(`${SITE}/api/embed/status`)
      .then((response) => response.json() as Promise<{ frameable?: unknown }>)
      .then((status) => status.frameable === true)
      .catch(() => false)
      .then((frameable) => {
        this.frameable = frameable;
        if (!frameable) {
          if (mode !== 'button') this.fallback(root, link);
          return;
        }
        const frame = (this.frame = make('iframe'));
        frame.src = this.url(true);
        frame.title = this.texts.frame;
        frame.allow = 'payment';
        css(frame, { display: 'block', width: '100%', border: '0', height: `${reservedHeightPx(mode === 'button' ? Math.min(DIALOG_MAX_WIDTH_PX, innerWidth) : this.clientWidth)}px`, overflow: 'hidden' });
        if (mode === 'button') this.dialogWith(root, frame);
        else root.append(frame);
      });
  }

  /** The plain link to /donate, in place of a frame the page may not show. */
  private fallback(root: ShadowRoot, link: HTMLAnchorElement): void {
    this.frameable = false;
    this.frame?.remove();
    css(this, { minHeight: '0' });
    root.replaceChildren(link);
  }

  /** The closed dialog holding the frame (button mode). */
  private dialogWith(root: ShadowRoot, frame: HTMLIFrameElement): void {
    const dialog = (this.dialog = make('dialog'));
    dialog.setAttribute('aria-label', this.texts.dialog);
    css(dialog, { width: `min(${DIALOG_MAX_WIDTH_PX}px, 100vw)`, maxHeight: '100vh', padding: '0', border: '0', borderRadius: '8px', boxSizing: 'border-box' });
    const close = make('button', '×');
    close.type = 'button';
    close.setAttribute('aria-label', this.texts.close);
    css(close, { display: 'block', marginLeft: 'auto', font: '24px/1 sans-serif', width: '44px', height: '44px', border: '0', background: '#fff', color: '#222', cursor: 'pointer' });
    close.onclick = () => dialog.close();
    dialog.onclose = () => {
      document.documentElement.style.overflow = this.overflow;
      this.button?.focus();
      this.emit('closed', {});
    };
    dialog.append(close, frame);
    root.append(dialog);
  }

  /** Button mode's click: the dialog, or /donate in a new tab where the frame cannot be shown. */
  private open(): void {
    if (!this.frameable || !this.dialog) {
      window.open(this.url(false), '_blank', 'noopener');
      return;
    }
    this.overflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
    this.dialog.showModal();
    this.frame?.contentWindow?.postMessage(embedMessage(this.frameId, { event: 'focus' }), SITE);
  }

  /** The host's CSP refused our frame: the plain link in form mode, a new tab in button mode. */
  blocked(): void {
    if (this.dialog) this.frameable = false;
    else if (this.shadowRoot) this.fallback(this.shadowRoot, Object.assign(make('a', this.texts.fallback), { href: this.url(false), target: '_blank', rel: 'noopener' }));
  }

  private emit(name: string, detail: object): void {
    this.dispatchEvent(new CustomEvent(`reef-donate:${name}`, { detail, bubbles: true, composed: true }));
  }

  /** A message of this element's frame (already checked: see acceptFrameEvent). */
  receive(message: EmbedMessage<FrameEvent>): void {
    if (message.event === 'resize') {
      if (this.frame) this.frame.style.height = `${message.heightPx}px`;
      css(this, { minHeight: '0' });
      this.emit('resize', { heightPx: message.heightPx });
    } else if (message.event === 'completed') {
      const { amount, frequency, campaign, currency } = message;
      this.emit('completed', { amount, frequency, campaign, currency });
    } else if (message.event === 'close') {
      this.dialog?.close();
    } else {
      this.emit('ready', {});
    }
  }

  /** Goal mode: the campaign's goal bar from its public figures in words, or a link to its page when they cannot be read. */
  private async goal(root: ShadowRoot): Promise<void> {
    const lang = this.getAttribute('lang') === 'es' ? 'es' : 'en';
    const section = make('section');
    try {
      const response = await fetch(`${SITE}/api/campaigns/${encodeURIComponent(this.getAttribute('campaign') ?? '')}/goal-bar?locale=${lang}`);
      if (!response.ok) throw new Error(String(response.status));
      const bar = (await response.json()) as { title: string; progress: { shownPercent: number; label: string; valueText: string } | null; facts: string[]; note: string | null };
      const title = make('p', bar.title);
      css(title, { fontWeight: '700', margin: '0 0 8px' });
      section.setAttribute('aria-label', `${this.texts.goal}: ${bar.title}`);
      section.append(title);
      if (bar.progress) {
        const track = make('div');
        const fill = make('div');
        for (const [name, value] of Object.entries({ role: 'progressbar', 'aria-label': bar.progress.label, 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(bar.progress.shownPercent), 'aria-valuetext': bar.progress.valueText })) {
          track.setAttribute(name, value);
        }
        css(track, { height: '12px', borderRadius: '6px', background: '#b2dfdb', overflow: 'hidden', margin: '0 0 8px' });
        css(fill, { height: '100%', width: `${bar.progress.shownPercent}%`, background: '#00695c' });
        track.append(fill);
        section.append(track);
      }
      const list = make('ul');
      css(list, { listStyle: 'none', margin: '0', padding: '0', display: 'flex', flexWrap: 'wrap', gap: '4px 24px' });
      for (const fact of bar.note === null ? bar.facts : [bar.note]) list.append(make('li', fact));
      section.append(list);
    } catch {
      const link = make('a', this.texts.fallback);
      link.href = this.url(false);
      section.append(link);
    }
    root.replaceChildren(section);
  }
}

window.addEventListener('message', (event) => {
  const message = acceptFrameEvent(event, SITE, (frameId) => frames.get(frameId));
  if (message) frames.get(message.frameId)?.receive(message);
});
document.addEventListener('securitypolicyviolation', (event) => {
  if (event.blockedURI.startsWith(SITE) && /^(frame|child|default)-src/.test(event.effectiveDirective)) for (const element of frames.values()) element.blocked();
});
if (!customElements.get('reef-donate')) customElements.define('reef-donate', ReefDonate);
