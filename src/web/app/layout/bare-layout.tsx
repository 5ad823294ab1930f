import { PageSpinner } from '../../components/ui/spinner';
import { ToastHost } from '../../components/ui/toasts';
import { RadioProvider } from '../../features/radio';
import { PageOutlet } from '../page-outlet';

/** Pop-out player windows: the page alone, no top bar or footer; the window's own player. */
export function BareLayout() {
  return (
    <RadioProvider>
      <main id="main" className="min-h-dvh">
        <PageOutlet fallback={<PageSpinner />} />
        <ToastHost />
      </main>
    </RadioProvider>
  );
}
