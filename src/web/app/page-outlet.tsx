import { Component, Suspense, useLayoutEffect, type ErrorInfo, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { RouteErrorPage } from './pages/route-error-page';

/**
 * Where a layout shows its page: a page that fails to load or render shows the error page instead
 * of blanking the app, and a new page starts at the top.
 */
export function PageOutlet({ fallback }: { fallback: ReactNode }) {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    // Back and forward keep the browser's own scroll position.
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return (
    <PageErrorBoundary key={pathname}>
      <Suspense fallback={fallback}>
        <Outlet />
      </Suspense>
    </PageErrorBoundary>
  );
}

class PageErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Page failed', error, info.componentStack);
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteErrorPage error={this.state.error} />;
  }
}
