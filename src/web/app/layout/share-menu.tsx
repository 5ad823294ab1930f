import { Share2 } from 'lucide-react';
import { lazy, Suspense, useId } from 'react';
import { cn } from '../../lib/cn';
import { usePopover } from '../../lib/use-popover';
import { BAR_CONTROL } from './bar-control';

// The panel (share pop-ups, brand icons, clipboard) loads on the first open: no weight on the first load.
const SharePanel = lazy(() => import('./share-panel'));

/** Share and follow: share pop-ups, Instagram copy-link, app stores and social profiles. */
export function ShareMenu({ className }: { className?: string }) {
  const { open, setOpen, ref: rootRef } = usePopover();
  const panelId = useId();

  const close = () => setOpen(false);

  return (
    <div ref={rootRef} className={cn('relative', className)}>
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        className={cn(
          BAR_CONTROL,
          'inline-flex items-center justify-center gap-2 rounded-full px-3 text-sm font-medium text-mist-200 ring-1 ring-white/10 transition',
          'hover:bg-white/5 hover:text-white',
          open && 'bg-white/10 text-white',
        )}
      >
        <Share2 className="size-4" aria-hidden="true" />
        <span className="hidden lg:inline">Share</span>
        <span className="sr-only lg:hidden">Share and follow</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <SharePanel id={panelId} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
