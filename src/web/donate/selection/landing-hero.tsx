import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { ScreenHeading } from '../../components/screen-heading';
import { StatList } from '../../components/stat-list';
import type { Stat } from '../../content/site-copy';
import { CAMPAIGN_HERO_SLOT_ID } from '../../../shared/prerendered-pages';
import { useTranslation } from '../../i18n/use-translation';

/** The landing hero's three stats, exactly as the spec writes them (section 1); labels are message ids. */
export const HERO_STATS: readonly Stat[] = [
  { value: '7', label: /*i18n*/ 'selection.hero.stat.areas' },
  { value: '300+', label: /*i18n*/ 'selection.hero.stat.corals' },
  { value: '500+', label: /*i18n*/ 'selection.hero.stat.fish' },
];

/**
 * The campaign hero the server put into the page's first HTML for a campaign link (issue #34; decision 0102), read from
 * the document once, before hydration, so the app renders exactly what is there (and keeps it when the donor comes back
 * to the screen); empty on the server and for any other page.
 */
let serverCampaignHero: string | undefined;
function campaignHeroOfPage(): string {
  if (typeof document === 'undefined') return '';
  serverCampaignHero ??= document.getElementById(CAMPAIGN_HERO_SLOT_ID)?.innerHTML ?? '';
  return serverCampaignHero;
}

/**
 * The landing hero of the selection screen (spec section 1): a heading inviting support for the
 * reef, a paragraph of true facts about it (content-facts.md) and the three headline stats; for a campaign link, the campaign's
 * hero instead (issue #34). Memoised: it never
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
        {/* NOTE: a campaign link's hero (decision 0102) takes the place of the texts after it, which it hides. */}
        <Box
          id={CAMPAIGN_HERO_SLOT_ID}
          dangerouslySetInnerHTML={{ __html: campaignHeroOfPage() }}
          sx={{ '&:empty': { display: 'none' }, '&:not(:empty) ~ *': { display: 'none' } }}
        />
        <ScreenHeading sx={{ mb: 2 }}>{i18n._('selection.hero.heading')}</ScreenHeading>
        <Typography sx={{ fontSize: { xs: '1rem', sm: '1.125rem' }, mb: 3, maxWidth: '60ch' }}>{i18n._('selection.hero.paragraph')}</Typography>
        <StatList stats={HERO_STATS} onDark />
      </Container>
    </Box>
  );
});
