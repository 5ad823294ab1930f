import { UserRound } from 'lucide-react';
import { Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ProfileDialog } from './lazy-dialogs';

/** The top bar's MEMBER button: the signed-in member's own profile (edit, pictures, settings, Sign Out). */
export function MemberProfileButton({ userId, className, title, onClose }: { userId: string; className?: string; title?: string; onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        className={className}
        title={title}
        aria-haspopup="dialog"
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
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
