import { Suspense, useState, type ReactNode } from 'react';
import { ProfileDialog } from './lazy-dialogs';

/** A button opening the signed-in member's own profile (edit, pictures, settings, Sign Out); the member menus' "Profile". */
export function MemberProfileButton({
  userId,
  className,
  children,
  onOpen,
  onClose,
}: {
  userId: string;
  className?: string;
  children: ReactNode;
  onOpen?: () => void;
  onClose?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        onClick={() => {
          setOpened(true);
          setOpen(true);
          onOpen?.();
        }}
      >
        {children}
      </button>
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
