import CampaignIcon from '@mui/icons-material/Campaign';
import FavoriteIcon from '@mui/icons-material/Favorite';
import SchoolIcon from '@mui/icons-material/School';
import ScienceIcon from '@mui/icons-material/Science';
import WavesIcon from '@mui/icons-material/Waves';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';
import type { CauseIconName } from '../../shared/causes';
import { EcoIcon } from './eco-icon';

/** The component of each Material icon name the spec gives a cause (spec section 3). */
const ICONS: Record<CauseIconName, ComponentType<SvgIconProps>> = {
  waves: WavesIcon,
  science: ScienceIcon,
  school: SchoolIcon,
  eco: EcoIcon,
  campaign: CampaignIcon,
  favorite: FavoriteIcon,
};

/** Props of {@link CauseIcon}: the icon name (from `causeIcon`) and any SvgIcon prop. */
export interface CauseIconProps extends SvgIconProps {
  name: CauseIconName;
}

/** The icon of a cause (spec section 3, "Causes"); decorative unless `titleAccess` is given. */
export function CauseIcon({ name, ...props }: CauseIconProps) {
  const Icon = ICONS[name];
  return <Icon {...props} />;
}
