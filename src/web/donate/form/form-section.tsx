import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

/** Props of {@link FormSection}: its heading and its fields. */
export interface FormSectionProps {
  /** The section's heading, e.g. 'Personal Information' (spec section 2). */
  title: string;
  children: ReactNode;
}

/**
 * A titled part of the donation form (spec section 2: Personal Information, Billing Address
 * (Optional), Payment Information): an h2 and a one-column (phone) or two-column grid of fields.
 * Give a field `sx={{ gridColumn: '1 / -1' }}` to span the row.
 */
export function FormSection({ title, children }: FormSectionProps) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h2" id={headingId} sx={{ fontSize: '1.25rem', mb: 2 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        {children}
      </Box>
    </Box>
  );
}
