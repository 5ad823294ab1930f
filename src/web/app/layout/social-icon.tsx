import { FacebookIcon, InstagramIcon, SoundCloudIcon, XIcon, YouTubeIcon } from '../../components/ui/brand-icons';
import type { SocialId } from '../../lib/social';

const icons = { instagram: InstagramIcon, facebook: FacebookIcon, x: XIcon, soundcloud: SoundCloudIcon, youtube: YouTubeIcon };

export function SocialIcon({ id, className }: { id: SocialId; className?: string }) {
  const Icon = icons[id];
  return <Icon className={className} />;
}
