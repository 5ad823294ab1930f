import { SOCIAL_PROFILES } from '../../lib/social';
import { SocialIcon } from './social-icon';

interface SocialLinksProps {
  /** 'sm' in the footer; 'md' (bigger tap targets) in menus. */
  size?: 'sm' | 'md';
  className?: string;
  /** Called after a link is chosen (menus close themselves). */
  onSelect?: () => void;
}

/** DHR's social profiles as icon links; one list for the footer, the mobile menu and the share menu. */
export function SocialLinks({ size = 'md', className = '', onSelect }: SocialLinksProps) {
  const box = size === 'sm' ? 'size-9' : 'size-10';
  const icon = size === 'sm' ? 'size-4.5' : 'size-5';
  return (
    <div className={`flex gap-1 ${className}`}>
      {SOCIAL_PROFILES.map((s) => (
        <a
          key={s.id}
          href={s.href}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={s.label}
          title={s.label}
          onClick={onSelect}
          className={`flex ${box} items-center justify-center rounded-xl text-mist-400 transition hover:bg-white/5 hover:text-white`}
        >
          <SocialIcon id={s.id} className={icon} />
        </a>
      ))}
    </div>
  );
}
