import { MessageCircle } from 'lucide-react';
import { Suspense, useState } from 'react';
import { HOMEPAGE_DISCUSSION } from '../../../../contracts/discussions';
import { cn } from '../../../lib/cn';
import { CommentsDialog } from './lazy-dialogs';

/** The top bar's comments toggle: opens the home discussion's comments over any page. */
export function CommentsToggle({ className }: { className?: string }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label="Comments"
        aria-haspopup="dialog"
        aria-pressed={open}
        onClick={() => {
          setOpened(true);
          setOpen((o) => !o);
        }}
        className={cn(
          'glass inline-flex size-11 items-center lg:size-9 justify-center rounded-full text-mist-200 transition hover:border-white/20 hover:text-white',
          open && 'border-aqua-400/40 text-aqua-200',
          className,
        )}
      >
        <MessageCircle className="size-4" aria-hidden />
      </button>
      {opened && (
        <Suspense fallback={null}>
          <CommentsDialog open={open} onOpenChange={setOpen} discussionId={HOMEPAGE_DISCUSSION} />
        </Suspense>
      )}
    </>
  );
}
