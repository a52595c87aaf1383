import Box from '@mui/material/Box';
import { useLocation } from 'react-router';
import type { StaffRight } from '../../../../shared/staff/roles';
import { StaffLink } from '../../components/staff-link';
import { useStaffSession } from '../session/staff-session-context';
import { STAFF_PAGES } from '../../staff-paths';

/** The navigation's entries: label, page, and the right a role needs to see it (none: every staff member). */
const NAV_ITEMS: { label: string; to: string; right?: StaffRight }[] = [
  { label: 'Dashboard', to: STAFF_PAGES.root },
  { label: 'Donations', to: STAFF_PAGES.donations },
  { label: 'Plans', to: STAFF_PAGES.plans },
  { label: 'Donors', to: STAFF_PAGES.donors },
  { label: 'Campaigns', to: STAFF_PAGES.campaigns },
  { label: 'Mail', to: STAFF_PAGES.mail },
  { label: 'Audit', to: STAFF_PAGES.audit, right: 'audit' },
  { label: 'Team', to: STAFF_PAGES.team, right: 'team' },
  { label: 'Integrations', to: STAFF_PAGES.integrations, right: 'integrations' },
  { label: 'Passkeys', to: STAFF_PAGES.passkeys },
];

/**
 * The staff navigation (issue #21): plain links in a list that wraps onto more lines on a narrow screen (320 px, WCAG
 * 1.4.10) and is reached with Tab like any link; the current page is marked `aria-current="page"`. Pages a role cannot
 * open are not listed.
 */
export function StaffNav() {
  const { pathname } = useLocation();
  const { can } = useStaffSession();
  return (
    <Box component="nav" aria-label="Staff">
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1.5, sm: 3 }, listStyle: 'none', m: 0, p: 0, pt: 1 }}>
        {NAV_ITEMS.filter((item) => !item.right || can(item.right)).map((item) => {
          const current = pathname === item.to || (item.to !== STAFF_PAGES.root && pathname.startsWith(`${item.to}/`));
          return (
            <li key={item.to}>
              <StaffLink
                to={item.to}
                color="inherit"
                aria-current={current ? 'page' : undefined}
                sx={{ display: 'inline-block', py: 0.5, fontWeight: current ? 700 : 400, textDecorationThickness: current ? 3 : undefined }}
              >
                {item.label}
              </StaffLink>
            </li>
          );
        })}
      </Box>
    </Box>
  );
}
