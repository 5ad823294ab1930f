// The radio feature's public surface: other features import only from here.
export { LivePlayer, type LivePlayerProps } from './components/live-player';
export { HomeLivePlayer, useHomeNowPlaying } from './components/home-live-player';
export { useChannels, useChannel, channelsQueryOptions } from './api/get-channels';
export { useNowPlaying, liveMetadataQueryOptions, liveMetadataKey } from './api/get-live-metadata';
export { useLiveEvents, useLiveEventsConnected } from './api/live-events';
export { HOME_FALLBACK, PLAYER_FALLBACK, DHR2_FALLBACK, playerFallback } from './lib/fallbacks';
