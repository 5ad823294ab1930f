type Device = 'ios' | 'android' | 'mac' | 'desktop';

function device(): Device {
  const ua = navigator.userAgent;
  if (/iPhone|iPad|iPod/i.test(ua) || (/Macintosh/i.test(ua) && navigator.maxTouchPoints > 1)) return 'ios';
  if (/Android/i.test(ua)) return 'android';
  if (/Macintosh/i.test(ua)) return 'mac';
  return 'desktop';
}

const STEPS: Record<Device, string> = {
  ios: 'To play Deep House Radio on a speaker or TV with AirPlay:\n1. Start the stream.\n2. Open Control Centre.\n3. Tap the AirPlay icon on the music controls.\n4. Choose your speaker or Apple TV.',
  android:
    "To cast Deep House Radio:\n1. Start the stream.\n2. Open Chrome's menu (⋮) and tap Cast..., or open Quick Settings and tap Cast / Media output.\n3. Choose your Chromecast or speaker.",
  mac: 'To play Deep House Radio on another device:\n• AirPlay: start the stream, click the Control Centre icon in the menu bar, choose Sound and pick your AirPlay speaker.\n• Chromecast: in Chrome, open the menu (⋮) and choose Cast..., then your device.',
  desktop:
    'To cast Deep House Radio:\n1. Start the stream in Chrome or Edge.\n2. Open the browser menu (⋮) and choose Cast... (Edge: More tools → Cast media to device).\n3. Choose your Chromecast or speaker.',
};

/** For a browser with neither the Remote Playback API nor the share dialog. */
export const MANUAL_CAST_STEPS =
  'To listen on another device:\n• AirPlay (iPhone, iPad, Mac): start the stream, then pick your speaker from the AirPlay menu in Control Centre.\n• Chromecast (Android, Chrome): start the stream, then choose Cast... from the browser menu and pick your device.';

export function castInstructions(): string {
  return STEPS[device()];
}
