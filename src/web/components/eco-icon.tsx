import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import EcoSvg from '@material-symbols/svg-400/outlined/eco.svg?react';

/**
 * The Material `eco` (leaf) icon, which @mui/icons-material lacks: taken from the Material Symbols
 * package rather than drawn by hand (issue #2), and wrapped in SvgIcon so it sizes and colours
 * like the other icons. Decorative (aria-hidden) unless `titleAccess` is given.
 */
export function EcoIcon(props: SvgIconProps) {
  return <SvgIcon component={EcoSvg} viewBox="0 -960 960 960" {...props} />;
}
