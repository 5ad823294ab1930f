import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';

/** Pop-out player windows: the page alone, no top bar or footer. */
export function BareLayout() {
  return (
    <main id="main" className="min-h-dvh">
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </main>
  );
}
