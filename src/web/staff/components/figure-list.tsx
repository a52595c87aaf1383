import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * Headline figures above a staff list (issues #21 and #22: the donations' and the plans' totals of the filtered set):
 * a description list of `[label, value]` pairs, already worded, read in order; it wraps onto more lines on a narrow
 * screen (WCAG 1.4.10).
 */
export function FigureList({ items }: { items: readonly (readonly [string, string])[] }) {
  return (
    <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 2, sm: 4 }, m: 0, mb: 2 }}>
      {items.map(([label, value]) => (
        <div key={label}>
          <Typography component="dt" variant="body2">
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontSize: '1.25rem', fontWeight: 700 }}>
            {value}
          </Typography>
        </div>
      ))}
    </Box>
  );
}
