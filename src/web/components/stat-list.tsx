import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Stat } from '../content/site-copy';
import { useTranslation } from '../i18n/use-translation';

/** Props of {@link StatList}: the stats and whether they sit on a dark (ocean) background. */
export interface StatListProps {
  stats: readonly Stat[];
  /** Light text for a dark background (the landing hero). */
  onDark?: boolean;
}

/**
 * A row of headline figures such as '300+ coral species' (spec sections 1 and 2), as a list so a
 * screen reader reads each figure with its label (a message id, shown in the page's language).
 */
export function StatList({ stats, onDark = false }: StatListProps) {
  const { i18n } = useTranslation();
  return (
    <Box
      component="ul"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
        gap: { xs: 1, sm: 2 },
      }}
    >
      {stats.map((stat) => (
        <Box
          component="li"
          key={stat.label}
          sx={{
            textAlign: 'center',
            py: 1.5,
            px: 0.5,
            borderRadius: 2,
            bgcolor: onDark ? 'rgba(255, 255, 255, 0.12)' : 'background.default',
          }}
        >
          <Typography
            component="span"
            sx={{ display: 'block', fontSize: { xs: '1.5rem', sm: '2rem' }, fontWeight: 700, lineHeight: 1.2 }}
            color={onDark ? 'inherit' : 'primary'}
          >
            {stat.value}
          </Typography>
          <Typography component="span" variant="body2" sx={{ display: 'block' }} color={onDark ? 'inherit' : 'text.secondary'}>
            {i18n._(stat.label)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
