import { createTheme, responsiveFontSizes } from '@mui/material/styles';

/** Deep ocean blue: 7.6:1 against white, so white text on it and it on white both pass WCAG AA. */
const OCEAN = '#01579b';
/** Reef teal for accents: 6.5:1 against white. */
const REEF = '#00695c';
/** Focus ring: 3px of ocean dark, 11:1 against white and the page background (WCAG 2.4.7, 2.4.11). */
const FOCUS_RING = { outline: '3px solid #003c6e', outlineOffset: '2px' } as const;
/** Borders of inputs and toggle buttons: 3:1 or more against white (WCAG 1.4.11, non-text contrast). */
const CONTROL_BORDER = 'rgba(0, 0, 0, 0.45)';

/**
 * The site's Material theme (DESIGN.md: MUI): ocean colours, the system font stack (no web fonts
 * are fetched), buttons in the case the spec writes them (issue #2: no uppercase), selected toggle
 * buttons filled so the choice stands out, a visible focus ring on every control, and no motion for visitors who ask for reduced motion.
 */
export const theme = responsiveFontSizes(
  createTheme({
    palette: {
      primary: { main: OCEAN, dark: '#003c6e', light: '#4f83cc', contrastText: '#ffffff' },
      secondary: { main: REEF, contrastText: '#ffffff' },
      background: { default: '#f1f6fa', paper: '#ffffff' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily:
        'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
      h1: { fontSize: '2.5rem', fontWeight: 700, lineHeight: 1.2 },
      h2: { fontSize: '1.5rem', fontWeight: 700, lineHeight: 1.3 },
      h3: { fontSize: '1.125rem', fontWeight: 600, lineHeight: 1.4 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          // NOTE: screen headings take focus after each navigation (tabIndex -1); they are not
          // controls, so they get no focus ring.
          'h1[tabindex="-1"]:focus': { outline: 'none' },
          // A clear ring on every focused control reached by keyboard, not only MUI's faint ripple.
          'a:focus-visible': FOCUS_RING,
          '@media (prefers-reduced-motion: reduce)': {
            '*, *::before, *::after': {
              animationDuration: '0.01ms !important',
              animationIterationCount: '1 !important',
              transitionDuration: '0.01ms !important',
              scrollBehavior: 'auto !important',
            },
          },
        },
      },
      MuiButtonBase: {
        styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } },
      },
      MuiMenuItem: {
        // Inside the menu's scrolling list the ring is drawn inwards, or the list would clip it.
        styleOverrides: { root: { '&.Mui-focusVisible': { outlineOffset: '-3px' } } },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { textTransform: 'none' } },
      },
      MuiToggleButton: {
        styleOverrides: {
          root: ({ theme: t }) => ({
            textTransform: 'none',
            fontWeight: 600,
            fontSize: '1rem',
            color: t.palette.text.primary,
            borderColor: CONTROL_BORDER,
            '&.Mui-selected, &.Mui-selected:hover': {
              backgroundColor: t.palette.primary.main,
              color: t.palette.primary.contrastText,
            },
            '&.Mui-selected:hover': { backgroundColor: t.palette.primary.dark },
          }),
        },
      },
      MuiOutlinedInput: {
        styleOverrides: { notchedOutline: { borderColor: CONTROL_BORDER } },
      },
    },
  }),
);
