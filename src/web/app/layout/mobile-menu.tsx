import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { NavItem } from './nav-items';

const MobileMenuSheet = lazy(() => import('./mobile-menu-sheet'));

/** The phone menu button; its sheet (and Radix with it) loads on the first tap. */
export function MobileMenu({ items }: { items: readonly NavItem[] }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="inline-flex size-11 items-center justify-center rounded-full text-mist-200 ring-1 ring-white/10 transition hover:bg-white/5 hover:text-white lg:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <Menu className="size-5" aria-hidden="true" />
      </button>
      {opened && (
        <Suspense fallback={null}>
          <MobileMenuSheet items={items} open={open} onOpenChange={setOpen} returnFocusTo={button} />
        </Suspense>
      )}
    </>
  );
}
