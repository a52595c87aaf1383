/** A part of a language's catalogue, compiled for the browser by scripts/vite-catalogues.ts (issue #24). */
declare module '*.json?part=landing' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
declare module '*.json?part=screens' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
