import type { SxProps, Theme } from '@mui/material/styles';
import { toggleButtonGroupClasses } from '@mui/material/ToggleButtonGroup';

/**
 * Lays a ToggleButtonGroup's buttons out as separate, wrapping tiles instead of MUI's joined
 * segmented bar, which cannot wrap on a 320px screen (mobile first). `columns` is per breakpoint.
 * NOTE: the selection screen's toggle buttons have no ripple (`disableRipple`): the pressed tile fills with the
 * brand colour at once, and MUI's ripple cost a React render on every touch, 20-50 ms of a tap on a 4x slower phone
 * (issue #20: Interaction to Next Paint <= 200 ms). Keyboard focus keeps the theme's ring (`Mui-focusVisible`).
 */
export function toggleGridSx(columns: { xs: number; sm?: number }): SxProps<Theme> {
  return {
    display: 'grid',
    width: '100%',
    gap: 1,
    gridTemplateColumns: {
      xs: `repeat(${columns.xs}, minmax(0, 1fr))`,
      sm: `repeat(${columns.sm ?? columns.xs}, minmax(0, 1fr))`,
    },
    [`& .${toggleButtonGroupClasses.grouped}`]: {
      m: 0,
      border: '1px solid',
      borderColor: 'rgba(0, 0, 0, 0.45)',
      borderRadius: 2,
    },
    [`& .${toggleButtonGroupClasses.grouped}.${toggleButtonGroupClasses.selected}`]: {
      borderColor: 'primary.main',
    },
  };
}
