import { Link, NavLink } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { CommentsToggle } from '../../features/community';
import { cn } from '../../lib/cn';
import { AccountSlot } from './account-slot';
import { MobileMenu } from './mobile-menu';
import { ADMIN_NAV_ITEM, NAV_ITEMS, type NavItem } from './nav-items';
import { ShareMenu } from './share-menu';
import { useIsAdmin } from './use-is-admin';

/** The sticky top bar: logo, nav links, share and follow, the comments toggle, account; a menu on phones. */
export function TopBar() {
  const isAdmin = useIsAdmin();
  const items: readonly NavItem[] = isAdmin ? [...NAV_ITEMS, ADMIN_NAV_ITEM] : NAV_ITEMS;
  return (
    <header className="sticky top-0 z-40 border-b border-white/5 bg-night-950/70 backdrop-blur-xl supports-[backdrop-filter]:bg-night-950/55">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-2 px-3 min-[400px]:gap-3 min-[400px]:px-4 sm:px-6 lg:px-8">
        <Link to="/" aria-label="DHR Deep House Radio home" className="flex min-h-11 min-w-11 shrink-0 items-center rounded-lg">
          {/* Below 380 px the signed-in controls need the wordmark's room; the mark and the link's label stay. */}
          <Logo compact="responsive" className="max-[379px]:[&>span:last-child]:hidden" />
        </Link>
        <nav aria-label="Main" className="ml-2 hidden flex-1 items-center justify-center gap-0.5 lg:flex xl:gap-1">
          {items.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.to === '/'}
              className={({ isActive }) =>
                cn(
                  'relative rounded-full px-3 py-2 text-sm font-medium transition xl:px-3.5',
                  isActive ? 'bg-white/10 text-white' : 'text-mist-300 hover:bg-white/5 hover:text-white',
                )
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1.5 min-[400px]:gap-2 lg:ml-0">
          <ShareMenu />
          <CommentsToggle />
          <AccountSlot placement="bar" />
          <MobileMenu items={items} />
        </div>
      </div>
    </header>
  );
}
