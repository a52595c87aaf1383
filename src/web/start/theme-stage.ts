/**
 * The second stage of the app's start (issue #20, decision 0070): emotion, MUI's style system and the site's
 * theme (whose `createTheme` runs when the module is evaluated), a chunk of their own (vite.config.ts), evaluated
 * in a task of its own after React's. The site stage uses them from the same chunk.
 */
export { CacheProvider } from '@emotion/react';
export { styled, ThemeProvider } from '@mui/material/styles';
export { createEmotionCache, readCspNonce } from '../emotion-cache';
export { theme } from '../theme';
