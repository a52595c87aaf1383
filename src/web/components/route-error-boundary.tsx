import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface RouteErrorBoundaryState {
  failed: boolean;
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
        <Alert
          severity="warning"
          action={
            <Button color="inherit" onClick={() => window.location.reload()}>
              Reload
            </Button>
          }
        >
          This page could not be loaded. Please reload it to continue.
        </Alert>
      </Container>
    );
  }
}
