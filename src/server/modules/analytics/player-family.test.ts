import { describe, expect, it } from 'vitest';
import { playerFamily } from './player-family';

describe('player family from the User-Agent', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'browser'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1', 'browser'],
    ['TuneIn Radio/27.4 (Android 14; Pixel 8)', 'mobile_app'],
    ['okhttp/4.12.0', 'mobile_app'],
    ['Mozilla/5.0 (Linux; Android 13; SM-A536B; wv) AppleWebKit/537.36', 'mobile_app'],
    ['Sonos/79.1-52020 (ZPS33)', 'smart_speaker'],
    ['Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 CrKey/1.56.500000', 'smart_speaker'],
    ['AlexaMediaPlayer/2.1.4676.0 (Linux;Android 5.1.1) ExoPlayerLib/1.5.9', 'smart_speaker'],
    ['VLC/3.0.20 LibVLC/3.0.20', 'media_player'],
    ['Lavf/60.16.100', 'media_player'],
    ['foobar2000/2.1', 'media_player'],
    ['curl/8.5.0', 'other'],
    ['', 'other'],
  ])('%s → %s', (ua, family) => {
    expect(playerFamily(ua)).toBe(family);
  });
});
