import { PageSpinner } from '../../components/ui/spinner';
import { ToastHost } from '../../components/ui/toasts';
import { PlayerBar, RadioProvider } from '../../features/radio';
import { PageOutlet } from '../page-outlet';
import { Footer } from './footer';
import { TopBar } from './top-bar';

/**
 * The shared layout around every page except the pop-out players. It holds the site's one player:
 * moving between its pages (client-side) keeps the music playing, and the player bar is on every page.
 */
export function RootLayout() {
  return (
    <RadioProvider freeByDefault>
      {/* The bottom padding keeps the footer clear of the fixed player bar. */}
      <div className="flex min-h-dvh flex-col pb-[calc(4rem+env(safe-area-inset-bottom))]">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-full focus:bg-white focus:px-4 focus:py-2 focus:text-night-950"
        >
          Skip to content
        </a>
        <TopBar />
        {/* At least a screen tall: the footer starts below the fold, so a page arriving late never moves it into view. */}
        <main id="main" className="min-h-dvh flex-1">
          <PageOutlet fallback={<PageSpinner />} />
        </main>
        <Footer />
        <PlayerBar />
        <ToastHost />
      </div>
    </RadioProvider>
  );
}
