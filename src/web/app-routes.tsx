import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { HydrationEnd } from './components/hydration';
import { PageLoading } from './components/page-loading';
import { RouteErrorBoundary } from './components/route-error-boundary';
import { loadDonationFormPage } from './donate/form/load-donation-form-page';
import { SelectionPage } from './donate/selection/selection-page';
import { PATHS } from '../shared/site-paths';
import { localePrefix, localizedPath } from '../shared/i18n/locale-paths';
import { LOCALES, SOURCE_LOCALE } from '../shared/i18n/locales';
import { ScreensCatalogue } from './i18n/locale-provider';

// The form and thank-you screens load on demand, so /donate ships only what it needs.
const DonationFormPage = lazy(() => loadDonationFormPage().then((module) => ({ default: module.DonationFormPage })));
const ThankYouPage = lazy(() =>
  import('./donate/thank-you/thank-you-page').then((module) => ({ default: module.ThankYouPage })),
);
const ManageLinksPage = lazy(() => import('./donate/manage/manage-links-page').then((module) => ({ default: module.ManageLinksPage })));
const ManagePlanPage = lazy(() => import('./donate/manage/manage-plan-page').then((module) => ({ default: module.ManagePlanPage })));
const ReceiptsPage = lazy(() => import('./donate/receipts/receipts-page').then((module) => ({ default: module.ReceiptsPage })));
// The staff back office (issue #21): its own chunks, never loaded by /donate.
const StaffApp = lazy(() => import('./staff/staff-app').then((module) => ({ default: module.StaffApp })));

/**
 * The site's routes (spec section 2): the empty path and any unknown path redirect to /donate;
 * /donate, /donate/form, /donate/thank-you, /donate/receipts (issue #12) and /donate/manage[/:token] (issue #13) show their screens, /staff and below the staff back office (issue #21). A screen that fails to load
 * shows a reload prompt instead of a blank page; `/es` and an unknown path under it land on `/es/donate` (issue #24).
 * Each language has the donor screens under its prefix (issue #24: `/es/donate`, ...); the lazily loaded ones wait for
 * the `screens` part of the language's catalogue (ScreensCatalogue), the staff back office stays English.
 * {@link HydrationEnd} sits last inside the Suspense boundary, so it ends the hydration of the pre-rendered
 * screen after that screen has mounted.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route path={PATHS.root} element={<Navigate to={PATHS.donate} replace />} />
          {LOCALES.map((locale) => (
            <Route key={locale} path={localizedPath(locale, PATHS.donate)} element={<SelectionPage />} />
          ))}
          <Route element={<ScreensCatalogue />}>
            {LOCALES.flatMap((locale) => [
              <Route key={`${locale}-form`} path={localizedPath(locale, PATHS.donationForm)} element={<DonationFormPage />} />,
              <Route key={`${locale}-thanks`} path={localizedPath(locale, PATHS.thankYou)} element={<ThankYouPage />} />,
              <Route key={`${locale}-receipts`} path={localizedPath(locale, PATHS.receipts)} element={<ReceiptsPage />} />,
              <Route key={`${locale}-manage`} path={localizedPath(locale, PATHS.manage)} element={<ManageLinksPage />} />,
              <Route key={`${locale}-plan`} path={localizedPath(locale, PATHS.managePlan)} element={<ManagePlanPage />} />,
            ])}
          </Route>
          <Route path={`${PATHS.staff}/*`} element={<StaffApp />} />
          {LOCALES.filter((locale) => locale !== SOURCE_LOCALE).map((locale) => (
            <Route key={`${locale}-unknown`} path={`${localePrefix(locale)}/*`} element={<Navigate to={localizedPath(locale, PATHS.donate)} replace />} />
          ))}
          <Route path="*" element={<Navigate to={PATHS.donate} replace />} />
        </Routes>
        {/* NOTE: inside the boundary: React hydrates a Suspense boundary's content after the rest (decision 0021). */}
        <HydrationEnd />
      </Suspense>
    </RouteErrorBoundary>
  );
}
