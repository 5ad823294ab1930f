import { Copy } from 'lucide-react';
import { AppleIcon, FacebookIcon, GooglePlayIcon, InstagramIcon, XIcon } from '../../components/ui/brand-icons';
import { openSharePopup, shareToInstagram } from '../../lib/share';
import { SocialLinks } from './social-links';

const itemClass = 'flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left text-sm text-mist-200 transition hover:bg-white/5 hover:text-white';

/** The open share menu (share-menu.tsx loads it on the first open); `onClose` after a choice. */
export default function SharePanel({ id, onClose }: { id: string; onClose: () => void }) {
  return (
    <div
      id={id}
      role="region"
      aria-label="Share and follow"
      className="fixed inset-x-3 top-[4.25rem] z-50 animate-fade-up sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-[19rem] rounded-2xl border border-white/10 bg-night-850 p-2 shadow-2xl shadow-black/60"
    >
      <p className="px-3 pt-2 pb-1 text-[0.65rem] font-semibold tracking-[0.25em] text-mist-500 uppercase">Share</p>
      <button
        type="button"
        className={itemClass}
        onClick={() => {
          openSharePopup('x');
          onClose();
        }}
      >
        <XIcon className="size-4" /> Share on X (Twitter)
      </button>
      <button
        type="button"
        className={itemClass}
        onClick={() => {
          openSharePopup('facebook');
          onClose();
        }}
      >
        <FacebookIcon className="size-4" /> Share on Facebook
      </button>
      <button
        type="button"
        className={itemClass}
        onClick={() => {
          onClose();
          void shareToInstagram();
        }}
      >
        <InstagramIcon className="size-4" /> Copy link for Instagram
        <Copy className="ml-auto size-3.5 text-mist-500" aria-hidden="true" />
      </button>

      <div className="my-2 h-px bg-white/5" />
      <p className="px-3 pt-1 pb-1 text-[0.65rem] font-semibold tracking-[0.25em] text-mist-500 uppercase">Get the app</p>
      <div className="grid grid-cols-2 gap-2 px-1 pb-1">
        {[
          { label: 'App Store', Icon: AppleIcon },
          { label: 'Google Play', Icon: GooglePlayIcon },
        ].map(({ label, Icon }) => (
          <div key={label} aria-disabled="true" className="flex items-center gap-2 rounded-xl bg-white/[0.03] px-3 py-2 ring-1 ring-white/5">
            <Icon className="size-5 text-mist-400" />
            <span className="flex flex-col leading-tight">
              <span className="text-xs font-semibold text-mist-200">{label}</span>
              <span className="text-[0.65rem] text-mist-500">Coming soon</span>
            </span>
          </div>
        ))}
      </div>

      <div className="my-2 h-px bg-white/5" />
      <p className="px-3 pt-1 pb-1 text-[0.65rem] font-semibold tracking-[0.25em] text-mist-500 uppercase">Follow us</p>
      <SocialLinks onSelect={onClose} className="flex-wrap px-1 pb-1" />
    </div>
  );
}
