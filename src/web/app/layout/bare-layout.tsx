import { PageSpinner } from '../../components/ui/spinner';
import { ToastHost } from '../../components/ui/toasts';
import { PageOutlet } from '../page-outlet';

/** Pop-out player windows: the page alone, no top bar or footer. */
export function BareLayout() {
  return (
    <main id="main" className="min-h-dvh">
      <PageOutlet fallback={<PageSpinner />} />
      <ToastHost />
    </main>
  );
}
