import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import WavesIcon from '@mui/icons-material/Waves';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { SvgIconComponent } from '@mui/icons-material';
import { NEXT_STEPS } from '../../content/site-copy';
import { useTranslation } from '../../i18n/use-translation';

const STEP_ICONS: readonly SvgIconComponent[] = [MarkEmailReadIcon, AccountBalanceIcon, WavesIcon];

/**
 * The 'What Happens Next' list of the thank-you page (spec section 2): the receipt e-mail, tax
 * documentation (consult a tax advisor), and the allocation to conservation projects within 30 days; in the page's
 * language (issue #24).
 */
export function NextStepsList() {
  const { i18n } = useTranslation();
  return (
    <List component="ol" disablePadding>
      {NEXT_STEPS.map((step, index) => {
        const Icon = STEP_ICONS[index] ?? WavesIcon;
        return (
          <ListItem key={step.title} disableGutters sx={{ alignItems: 'flex-start' }}>
            <ListItemIcon sx={{ mt: 0.5, minWidth: 40 }}>
              <Icon color="primary" />
            </ListItemIcon>
            <ListItemText
              primary={i18n._(step.title)}
              secondary={i18n._(step.text)}
              slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { sx: { color: 'text.secondary' } } }}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
