// The radio feature's public surface: other features import only from here.
export { LivePlayer } from './components/live-player';
export { RadioProvider } from './components/radio-provider';
export { PlayerBar } from './components/player-bar';
export { HomeLivePlayer, useHomeNowPlaying } from './components/home-live-player';
export { useChannels, useChannel } from './api/get-channels';
export { useNowPlaying } from './api/get-live-metadata';
export { playerFallback } from './lib/fallbacks';
export { premiumSource } from './api/get-stream-ticket';
export { useLiveAudience, useLiveEvent, useLiveEventsConnected } from './api/live-events';
export { default as PlayerPage } from './pages/player-page';
