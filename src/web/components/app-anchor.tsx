import type { ComponentProps } from 'react';
import { useHref, useLinkClickHandler } from 'react-router';

/** Props of {@link AppAnchor}: an `<a>`'s, with the in-app path to go to instead of `href`. */
export interface AppAnchorProps extends Omit<ComponentProps<'a'>, 'href'> {
  to: string;
}

/**
 * An in-app link for MUI's `component` prop (`<Link component={AppAnchor} to={PATHS.donate}>`, also on Buttons): an
 * `<a href>` whose plain click navigates in the app and whose modified click (new tab, new window) is left to the
 * browser, what React Router's Link does. Built on React Router's own `useHref` and `useLinkClickHandler` rather than
 * its Link component, whose code (prefetching, forms, framework mode) /donate would otherwise load at start, as
 * React Router is one module (issue #20: the bundle budget).
 */
export function AppAnchor({ to, onClick, ...props }: AppAnchorProps) {
  const href = useHref(to);
  const navigateOnClick = useLinkClickHandler<HTMLAnchorElement>(to);
  return (
    <a
      {...props}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigateOnClick(event);
      }}
    />
  );
}
