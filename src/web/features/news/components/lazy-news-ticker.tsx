import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { PageContainer } from '../../../components/ui/page-container';

const NewsTicker = lazy(() => import('./news-ticker'));

/** The ticker's frame: the same box the ticker fills, so its arrival moves nothing. */
function TickerFrame() {
  return (
    <PageContainer width="wide">
      <div className="glass h-12 rounded-full" aria-hidden="true" />
    </PageContainer>
  );
}

/**
 * The home ticker, loaded (code and data) only once it comes near the screen: on a phone it sits
 * below the fold, so the home page's first load stays within its budget (docs/decisions/0010).
 */
export function LazyNewsTicker() {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setNear(true);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [near]);
  return (
    <div ref={ref}>
      {near ? (
        <Suspense fallback={<TickerFrame />}>
          <NewsTicker />
        </Suspense>
      ) : (
        <TickerFrame />
      )}
    </div>
  );
}
