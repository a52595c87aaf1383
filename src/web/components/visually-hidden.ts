import type { SxProps, Theme } from '@mui/material/styles';

/** Hides content visually while keeping it for screen readers (the usual "sr-only" rules). */
export const visuallyHidden: SxProps<Theme> = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};
