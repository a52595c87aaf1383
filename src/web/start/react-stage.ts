/**
 * The first stage of the app's start (issue #20, decision 0070): React and react-dom, a chunk of their own
 * (vite.config.ts), evaluated in a task of its own. main.tsx imports it only for that evaluation; the site stage
 * uses React from the same chunk.
 */
export { createRoot, hydrateRoot } from 'react-dom/client';
export { startTransition } from 'react';
