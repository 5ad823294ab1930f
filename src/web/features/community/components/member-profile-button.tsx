import { UserRound } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';

// The dialog loads on the first click, keeping it out of every page's first load.
const ProfileDialog = lazy(() => import('./profile-dialog'));

/** The top bar's MEMBER button: the signed-in member's own profile (edit, pictures, settings, Sign Out). */
export function MemberProfileButton({ userId, className, title, onClose }: { userId: string; className?: string; title?: string; onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="secondary" size="sm" className={className} title={title} aria-haspopup="dialog" onClick={() => { setOpened(true); setOpen(true); }}>
        <UserRound className="size-4" aria-hidden /> MEMBER
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ProfileDialog
            userId={userId}
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              if (!next) onClose?.();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
