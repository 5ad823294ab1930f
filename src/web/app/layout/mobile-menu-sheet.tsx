import type { RefObject } from 'react';
import { NavLink } from 'react-router';
import { cn } from '../../lib/cn';
import { AccountSlot } from './account-slot';
import { Sheet } from '../../components/ui/dialog';
import { Logo } from '../../components/ui/logo';
import { SocialLinks } from './social-links';
import type { NavItem } from './nav-items';

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
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title="Menu"
      description="Site navigation"
      closeLabel="Close menu"
      brand={<Logo />}
      onCloseAutoFocus={(e) => {
        e.preventDefault();
        returnFocusTo.current?.focus();
      }}
      overlayClassName="lg:hidden"
      className="w-[min(20rem,88vw)] p-5 lg:hidden"
    >
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
        <AccountSlot placement="sheet" onNavigate={close} />
      </div>
      <SocialLinks onSelect={close} className="mt-auto justify-center pt-6" />
    </Sheet>
  );
}
