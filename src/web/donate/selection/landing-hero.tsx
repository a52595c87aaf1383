import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { ScreenHeading } from '../../components/screen-heading';
import { StatList } from '../../components/stat-list';
import type { Stat } from '../../content/site-copy';
import { useTranslation } from '../../i18n/use-translation';

/** The landing hero's three stats, exactly as the spec writes them (section 1); labels are message ids. */
export const HERO_STATS: readonly Stat[] = [
  { value: '7', label: /*i18n*/ 'selection.hero.stat.areas' },
  { value: '300+', label: /*i18n*/ 'selection.hero.stat.corals' },
  { value: '500+', label: /*i18n*/ 'selection.hero.stat.fish' },
];

/**
 * The landing hero of the selection screen (spec section 1): a heading inviting support for the
 * reef, a paragraph of true facts about it (content-facts.md) and the three headline stats. Memoised: it never
 * changes but with the language, so a tap on the selection card does not render it again (issue #20: Interaction to Next Paint).
 */
export const LandingHero = memo(function LandingHero() {
  const { i18n } = useTranslation();
  return (
    <Box
      sx={{
        color: 'common.white',
        background: 'linear-gradient(160deg, #01579b 0%, #003c6e 55%, #00695c 100%)',
        pt: { xs: 4, sm: 6 },
        pb: { xs: 10, sm: 12 },
      }}
    >
      <Container maxWidth="md">
        <ScreenHeading sx={{ mb: 2 }}>{i18n._('selection.hero.heading')}</ScreenHeading>
        <Typography sx={{ fontSize: { xs: '1rem', sm: '1.125rem' }, mb: 3, maxWidth: '60ch' }}>{i18n._('selection.hero.paragraph')}</Typography>
        <StatList stats={HERO_STATS} onDark />
      </Container>
    </Box>
  );
});
