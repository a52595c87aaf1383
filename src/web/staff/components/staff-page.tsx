import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';

/**
 * One staff page's frame: its title (the document's too, WCAG 2.4.2), an h1 that takes focus after an in-app
 * navigation, and the content. Width follows the window down to 320 px (WCAG 1.4.10, Reflow).
 */
export function StaffPage({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  usePageTitle(`${title} | Staff`);
  return (
    <Box sx={{ px: { xs: 1.5, sm: 3 }, py: 3, maxWidth: 1280, mx: 'auto' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2 }}>
        <ScreenHeading variant="h2" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </ScreenHeading>
        {actions}
      </Box>
      {children}
    </Box>
  );
}
