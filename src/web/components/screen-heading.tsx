import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { FIRST_LOCATION_KEY } from './first-location';

/** Props of {@link ScreenHeading}: Typography's, with the heading text as children. */
export type ScreenHeadingProps = Omit<TypographyProps<'h1'>, 'component' | 'ref' | 'tabIndex'>;

/**
 * A screen's main heading (h1). After an in-app navigation it takes focus, so keyboard and screen
 * reader users start reading the new screen from its top (spec section 2 asks for the scroll to
 * top; this is its accessible counterpart). The first page load leaves focus alone.
 */
export function ScreenHeading({ variant = 'h1', ...props }: ScreenHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (key !== FIRST_LOCATION_KEY) ref.current?.focus({ preventScroll: true });
  }, [key]);
  return <Typography ref={ref} component="h1" variant={variant} tabIndex={-1} {...props} />;
}
