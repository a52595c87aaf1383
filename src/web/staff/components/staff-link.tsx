import Link, { type LinkProps } from '@mui/material/Link';
import { AppAnchor } from '../../components/app-anchor';

/** Props of {@link StaffLink}: MUI Link's, with the in-app path in `to`. */
export type StaffLinkProps = Omit<LinkProps<typeof AppAnchor>, 'component'>;

/**
 * An in-app link of the staff pages: MUI's Link drawn over {@link AppAnchor} (a real `<a href>`, so it opens in a new
 * tab and is announced as a link; a plain click navigates in the app without a reload).
 */
export function StaffLink(props: StaffLinkProps) {
  return <Link component={AppAnchor} {...props} />;
}
