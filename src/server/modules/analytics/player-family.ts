import type { PlayerFamily } from '../../../contracts/analytics-values';

/**
 * The player family of a listener's User-Agent. Checked in this order because speakers and apps often
 * carry a browser's "Mozilla/5.0" too, and apps are often built on a media library.
 */
const RULES: readonly (readonly [PlayerFamily, RegExp])[] = [
  ['smart_speaker', /alexa|amazon ?echo|sonos|googlecast|google-?home|google-?nest|crkey|chromecast|heos|bluesound|bose|libratone|roku|airplay|musiccast/i],
  [
    'mobile_app',
    /tunein|radio ?garden|radiodroid|radio\.?net|streema|simple ?radio|myradio|radioplayer|okhttp|dalvik|exoplayer|stagefright|cfnetwork|applecoremedia|android.*; ?wv\)/i,
  ],
  [
    'media_player',
    /vlc|winamp|foobar|mpv|mplayer|itunes|lavf|ffmpeg|ffplay|gstreamer|xine|audacious|clementine|strawberry|rhythmbox|nsplayer|windows-media|kodi|xbmc|music player daemon|\bmpd\b|streamripper|quicktime/i,
  ],
  ['browser', /mozilla\/|opera\/|webkit/i],
];

export function playerFamily(userAgent: string): PlayerFamily {
  for (const [family, pattern] of RULES) if (pattern.test(userAgent)) return family;
  return 'other';
}
