import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { FIRST_LOCATION_KEY } from './first-location';
import { CAMPAIGN_HERO_SLOT_ID } from '../../shared/prerendered-pages';

/** Props of {@link ScreenHeading}: Typography's, with the heading text as children. */
export type ScreenHeadingProps = Omit<TypographyProps<'h1'>, 'component' | 'ref' | 'tabIndex'>;

/**
 * A screen's main heading (h1). After an in-app navigation it takes focus, so keyboard and screen
 * reader users start reading the new screen from its top (spec section 2 asks for the scroll to
 * top; this is its accessible counterpart). The first page load leaves focus alone. Where a campaign link's hero hides
 * the landing heading (issue #34, decision 0102), the campaign's own h1 takes the focus instead.
 */
export function ScreenHeading({ variant = 'h1', ...props }: ScreenHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (key === FIRST_LOCATION_KEY) return;
    const heading = ref.current;
    // NOTE: a hidden element cannot take focus: the campaign hero's h1 (tabindex -1) stands where this one is hidden.
    const shown = heading && heading.getClientRects().length === 0 ? document.querySelector<HTMLElement>(`#${CAMPAIGN_HERO_SLOT_ID} h1`) : heading;
    shown?.focus({ preventScroll: true });
  }, [key]);
  return <Typography ref={ref} component="h1" variant={variant} tabIndex={-1} {...props} />;
}
