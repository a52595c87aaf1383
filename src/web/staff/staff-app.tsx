import { Navigate, Route, Routes } from 'react-router';
import { AuditPage } from './identity/audit/audit-page';
import { CampaignPage } from './campaigns/campaign-page';
import { CampaignsPage } from './campaigns/campaigns-page';
import { DashboardPage } from './dashboard/dashboard-page';
import { RequireStaffOrigin } from './identity/layout/wrong-origin';
import { DonationPage } from './donations/donation-page';
import { DonationsPage } from './donations/donations-page';
import { DonorPage } from './donors/donor-page';
import { DonorsPage } from './donors/donors-page';
import { EnrollPage } from './identity/enroll/enroll-page';
import { IntegrationsPage } from './integrations/integrations-page';
import { MailPage } from './mail/mail-page';
import { NewDonationPage } from './offline-gifts/new-donation-page';
import { StaffLayout } from './identity/layout/staff-layout';
import { PublicFrame } from './identity/layout/public-frame';
import { PasskeysPage } from './identity/passkeys/passkeys-page';
import { PlanPage } from './plans/plan-page';
import { PlansPage } from './plans/plans-page';
import { SignInLinkPage } from './identity/sign-in/sign-in-link-page';
import { SignInPage } from './identity/sign-in/sign-in-page';
import { STAFF_PAGES } from './staff-paths';
import { TeamPage } from './identity/team/team-page';

/** A staff page's path relative to /staff, as the routes below match it (they sit under the site's `/staff/*`). */
function below(path: string): string {
  return path.slice(STAFF_PAGES.root.length + 1);
}

/**
 * The staff back office (issue #21), loaded lazily under `/staff/*` so /donate loads none of it: the sign-in, link and
 * enrollment pages without a session, every other page inside the signed-in {@link StaffLayout}; `/staff` itself is the
 * dashboard (issue #22), where an unknown staff path lands too. Every page carries `noindex` (the server also sends `X-Robots-Tag`)
 * and is shown only at PUBLIC_URL's origin.
 */
export function StaffApp() {
  return (
    <RequireStaffOrigin>
      <meta name="robots" content="noindex, nofollow" />
      <Routes>
        <Route index element={<StaffLayout><DashboardPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.signIn)} element={<PublicFrame><SignInPage /></PublicFrame>} />
        <Route path={below(STAFF_PAGES.signInLink)} element={<PublicFrame><SignInLinkPage /></PublicFrame>} />
        <Route path={below(STAFF_PAGES.enroll)} element={<PublicFrame><EnrollPage /></PublicFrame>} />
        <Route path={below(STAFF_PAGES.donations)} element={<StaffLayout><DonationsPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.newDonation)} element={<StaffLayout><NewDonationPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.donation)} element={<StaffLayout><DonationPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.donors)} element={<StaffLayout><DonorsPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.donor)} element={<StaffLayout><DonorPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.mail)} element={<StaffLayout><MailPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.campaigns)} element={<StaffLayout><CampaignsPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.campaign)} element={<StaffLayout><CampaignPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.audit)} element={<StaffLayout><AuditPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.team)} element={<StaffLayout><TeamPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.integrations)} element={<StaffLayout><IntegrationsPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.passkeys)} element={<StaffLayout><PasskeysPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.plans)} element={<StaffLayout><PlansPage /></StaffLayout>} />
        <Route path={below(STAFF_PAGES.plan)} element={<StaffLayout><PlanPage /></StaffLayout>} />
        <Route path="*" element={<Navigate to={STAFF_PAGES.root} replace />} />
      </Routes>
    </RequireStaffOrigin>
  );
}
