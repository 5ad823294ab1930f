import { Link } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { usePermissions } from '../../features/auth';
import { SocialLinks } from './social-links';

/** The account column: sign-in offers for visitors only; a member gets their account page. */
const VISITOR_ACCOUNT_LINKS = [
  { to: '/auth', label: 'Sign In' },
  { to: '/set-password', label: 'Set Password' },
  { to: '/forgot-password', label: 'Forgot Password' },
  { to: '/privacy', label: 'Privacy' },
];
const MEMBER_ACCOUNT_LINKS = [
  { to: '/auth', label: 'Account' },
  { to: '/privacy', label: 'Privacy' },
];

const columns = [
  {
    title: 'Listen',
    links: [
      { to: '/', label: 'Live Stream' },
      { to: '/dhr1', label: 'DHR1 Premium' },
      { to: '/dhr2', label: 'DHR2 Exclusive' },
      { to: '/vip', label: 'VIP Mixes' },
    ],
  },
  {
    title: 'Community',
    links: [
      { to: '/forum', label: 'Forum' },
      { to: '/upload', label: 'DJ Submissions' },
      { to: '/shop', label: 'Shop' },
      { to: '/track-ident', label: 'Track Identifier' },
    ],
  },
] as const;

export function Footer() {
  const { data: permissions } = usePermissions();
  const account = { title: 'Account', links: permissions?.authenticated ? MEMBER_ACCOUNT_LINKS : VISITOR_ACCOUNT_LINKS };
  return (
    // Below the fold on every page (main is at least a screen tall): skipped by style and layout until it nears the screen.
    <footer className="below-fold mt-16 border-t border-white/5 bg-night-950/60 [contain-intrinsic-size:auto_640px]">
      <div className="mx-auto grid w-full max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)] lg:px-8">
        <div className="max-w-xs">
          <Logo />
          <p className="mt-4 text-sm leading-relaxed text-mist-400">
            Listener-funded deep house, streaming around the clock. Free to listen; members keep the music playing.
          </p>
          <SocialLinks size="sm" className="mt-5" />
        </div>
        <div className="grid grid-cols-2 gap-8 sm:grid-cols-3 md:contents">
          {[...columns, account].map((col) => (
            <div key={col.title}>
              <h2 className="text-xs font-semibold tracking-[0.25em] text-mist-500 uppercase">{col.title}</h2>
              <ul className="mt-4 space-y-2.5">
                {col.links.map((l) => (
                  <li key={l.to}>
                    <Link to={l.to} className="text-sm text-mist-300 transition hover:text-white">
                      {l.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <div className="border-t border-white/5">
        <p className="mx-auto w-full max-w-7xl px-4 py-6 text-xs text-mist-500 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} Deep House Radio. All rights reserved. Times are shown in Dublin time.
        </p>
      </div>
    </footer>
  );
}
