import type { SVGProps } from 'react';

/** Simplified brand marks (lucide has none), drawn on a 24-unit grid in currentColor. */
type IconProps = SVGProps<SVGSVGElement>;

const base = (props: IconProps) => ({ viewBox: '0 0 24 24', 'aria-hidden': true as const, ...props });

export function XIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="currentColor">
      <path d="M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.19L2 3h6.33l4.37 5.77L17.75 3Zm-1.08 16.2h1.7L7.4 4.72H5.58L16.67 19.2Z" />
    </svg>
  );
}

export function FacebookIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="currentColor">
      <path d="M13.5 21v-7.5h2.53l.38-2.93H13.5V8.7c0-.85.24-1.42 1.45-1.42h1.55V4.66A20.6 20.6 0 0 0 14.24 4.5c-2.23 0-3.76 1.36-3.76 3.87v2.2H7.95v2.93h2.53V21h3.02Z" />
    </svg>
  );
}

export function InstagramIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.5" cy="6.5" r="0.6" fill="currentColor" />
    </svg>
  );
}

export function YouTubeIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="currentColor">
      <path d="M21.6 7.2a2.5 2.5 0 0 0-1.77-1.77C18.27 5 12 5 12 5s-6.27 0-7.83.43A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.77 1.77C5.73 19 12 19 12 19s6.27 0 7.83-.43a2.5 2.5 0 0 0 1.77-1.77A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3-5.2 3Z" />
    </svg>
  );
}

export function SoundCloudIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="currentColor">
      <path d="M11 8.2c.6-.3 1.3-.45 2-.45a5.2 5.2 0 0 1 5.12 4.3 3.2 3.2 0 0 1 .88-.12 3.28 3.28 0 0 1 0 6.57H11V8.2Zm-1.5.9h1V18.5h-1V9.1Zm-2 1.4h1v8h-1v-8Zm-2 .9h1v7.1h-1v-7.1Zm-2 1.5h1v5.6h-1v-5.6Zm-2 1.4h1v3.2h-1v-3.2Z" />
    </svg>
  );
}

export function AppleIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="currentColor">
      <path d="M16.4 12.6c0-2.5 2.05-3.7 2.14-3.76a4.6 4.6 0 0 0-3.62-1.96c-1.54-.16-3 .9-3.79.9-.78 0-1.98-.88-3.26-.86a4.83 4.83 0 0 0-4.08 2.48c-1.74 3.02-.45 7.48 1.25 9.93.83 1.2 1.82 2.54 3.11 2.5 1.25-.05 1.72-.81 3.23-.81 1.5 0 1.93.81 3.25.78 1.34-.02 2.19-1.22 3.01-2.42a10.8 10.8 0 0 0 1.36-2.8 4.34 4.34 0 0 1-2.6-3.98ZM13.94 5.25A4.4 4.4 0 0 0 14.96 2a4.5 4.5 0 0 0-2.9 1.5 4.2 4.2 0 0 0-1.05 3.13 3.7 3.7 0 0 0 2.93-1.38Z" />
    </svg>
  );
}

export function GooglePlayIcon(props: IconProps) {
  return (
    <svg {...base(props)} fill="currentColor">
      <path d="M4.2 2.3 13.6 12l-9.4 9.7a1.7 1.7 0 0 1-.7-1.4V3.7c0-.57.27-1.1.7-1.4Zm10.6 10.93 2.37 2.44-10.4 5.94 8.03-8.38Zm0-2.46L6.77 2.39l10.4 5.94-2.37 2.44Zm3.7-1.64 2.62 1.5c.88.5.88 1.77 0 2.27l-2.62 1.5-2.6-2.65 2.6-2.62Z" />
    </svg>
  );
}
