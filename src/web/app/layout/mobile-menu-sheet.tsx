import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { RefObject } from 'react';
import { NavLink } from 'react-router';
import { cn } from '../../lib/cn';
import { AccountSlot } from './account-slot';
import { Logo } from '../../components/ui/logo';
import { SocialLinks } from './social-links';
import type { NavItem } from './top-bar';

/**
 * The phone menu's sheet from the right with the nav links and the account control; loaded on the
 * first tap of the menu button (mobile-menu.tsx), so Radix stays out of the first load.
 */
export default function MobileMenuSheet({
  items,
  open,
  onOpenChange,
  returnFocusTo,
}: {
  items: readonly NavItem[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  const close = () => onOpenChange(false);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-night-950/70 backdrop-blur-sm lg:hidden" />
        <RadixDialog.Content
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(20rem,88vw)] flex-col border-l border-white/10 bg-night-900/95 p-5 shadow-2xl backdrop-blur-xl lg:hidden">
          <div className="flex items-center justify-between">
            <Logo />
            <RadixDialog.Close className="rounded-full p-2 text-mist-400 hover:bg-white/5 hover:text-white" aria-label="Close menu">
              <X className="size-5" aria-hidden="true" />
            </RadixDialog.Close>
          </div>
          <RadixDialog.Title className="sr-only">Menu</RadixDialog.Title>
          <RadixDialog.Description className="sr-only">Site navigation</RadixDialog.Description>
          <nav aria-label="Mobile" className="mt-8 flex flex-col gap-1">
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.to === '/'}
                onClick={close}
                className={({ isActive }) =>
                  cn(
                    'rounded-xl px-4 py-3 text-base font-medium transition',
                    isActive ? 'bg-white/10 text-white' : 'text-mist-300 hover:bg-white/5 hover:text-white',
                  )
                }
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
          <div className="mt-6 border-t border-white/5 pt-6">
            <AccountSlot className="w-full" onNavigate={close} />
          </div>
          <SocialLinks onSelect={close} className="mt-auto justify-center pt-6" />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
