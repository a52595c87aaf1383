import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';

interface RouteErrorBoundaryState {
  failed: boolean;
}

/** The failure's sentence and its 'Reload' button, in the page's language (`shell.` ids: the landing part, issue #24). */
function LoadFailedMessage() {
  const { i18n } = useTranslation();
  return (
    <>
      <Typography sx={{ flex: '1 1 16rem' }}>{i18n._('shell.pageLoadFailed')}</Typography>
      <Button color="inherit" variant="outlined" onClick={() => window.location.reload()}>
        {i18n._('shell.pageReload')}
      </Button>
    </>
  );
}

/**
 * Catches a screen that fails to render or to load (e.g. a lazily loaded screen's file is gone
 * after a new deployment) and offers a reload instead of a blank page. Pass `resetKey` (the
 * location's pathname) so that navigating elsewhere tries again.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, RouteErrorBoundaryState> {
  override state: RouteErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): RouteErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A screen failed to load', error, info.componentStack);
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Container maxWidth="sm" sx={{ py: 6 }}>
        {/* NOTE: a plain box, not MUI's Alert (with its icons), which /donate would otherwise load for a rare case. */}
        <Box
          role="alert"
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, p: 2, borderRadius: 2, bgcolor: '#fff4e5', color: '#663c00' }}
        >
          <LoadFailedMessage />
        </Box>
      </Container>
    );
  }
}
