/** The station's public profiles (footer and the follow menu). */
export const SOCIAL_PROFILES = [
  { id: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/deephouseradio' },
  { id: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/deephouseradio' },
  { id: 'x', label: 'X (Twitter)', href: 'https://x.com/deephouseradio' },
  { id: 'soundcloud', label: 'SoundCloud', href: 'https://soundcloud.com/deephouseradio' },
  { id: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/@deephouseradio' },
] as const;

export type SocialId = (typeof SOCIAL_PROFILES)[number]['id'];
