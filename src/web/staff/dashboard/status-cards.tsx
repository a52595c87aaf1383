import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { StaffDashboard } from '../../../shared/staff/dashboard-api';
import { formatCents } from '../components/format';
import { StaffLink } from '../components/staff-link';
import { STAFF_PAGES } from '../staff-paths';

/** One card: a heading, its figure, a line that explains it, and a link to the page where it is acted on. */
function StatusCard({ title, figure, detail, link }: { title: string; figure: string; detail: ReactNode; link: { to: string; label: string } }) {
  return (
    <Paper component="li" variant="outlined" sx={{ p: 2 }}>
      <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem' }}>
        {title}
      </Typography>
      <Typography sx={{ fontSize: '1.6rem', fontWeight: 700 }}>{figure}</Typography>
      <Typography variant="body2">{detail}</Typography>
      <StaffLink to={link.to} sx={{ display: 'inline-block', mt: 1 }}>
        {link.label}
      </StaffLink>
    </Paper>
  );
}

/**
 * What needs watching now (issue #22, "Dashboard /staff"): active plans and what they bring a month (a yearly plan a
 * twelfth), renewals failing now (plans past due), and e-mails failing now (retrying, given up), each linking to the
 * page where staff act on it.
 */
export function StatusCards({ dashboard }: { dashboard: Pick<StaffDashboard, 'activePlans' | 'failingRenewals' | 'failingMail'> }) {
  const { activePlans, failingRenewals, failingMail } = dashboard;
  return (
    <Box component="ul" aria-label="Plans and mail now" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(15rem, 1fr))', gap: 2, listStyle: 'none', m: 0, mb: 3, p: 0 }}>
      <StatusCard
        title="Active plans"
        figure={activePlans.count.toLocaleString('en-US')}
        detail={`${formatCents(activePlans.monthlyEquivalentCents)} a month (yearly plans count a twelfth)`}
        link={{ to: `${STAFF_PAGES.plans}?status=active`, label: 'Active plans' }}
      />
      <StatusCard
        title="Renewals failing now"
        figure={failingRenewals.count.toLocaleString('en-US')}
        detail={`past due plans, ${formatCents(failingRenewals.amountCents)} owed`}
        link={{ to: `${STAFF_PAGES.plans}?status=past_due`, label: 'Past due plans' }}
      />
      <StatusCard
        title="E-mails failing now"
        figure={(failingMail.retrying + failingMail.failed).toLocaleString('en-US')}
        detail={`${failingMail.retrying.toLocaleString('en-US')} being retried, ${failingMail.failed.toLocaleString('en-US')} failed`}
        link={{ to: STAFF_PAGES.mail, label: 'Mail' }}
      />
    </Box>
  );
}
