// NOTE: first: zod must not probe for `eval` under the CSP (issue #4; see the module).
import './zod-csp';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createEmotionCache, readCspNonce } from './emotion-cache';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    {/* NOTE: emotion's style tags carry the page's CSP nonce (issue #4; src/web/emotion-cache.ts). */}
    <CacheProvider value={createEmotionCache(readCspNonce())}>
      <App />
    </CacheProvider>
  </StrictMode>,
);
