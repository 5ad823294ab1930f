// The tracks feature's public surface: other features import only from here.
export { LiveTrackCard, type LiveTrackCardProps } from './components/live-track-card';
export { RecentTracksWidget, type RecentTracksWidgetProps } from './components/recent-tracks-widget';
export { useCurrentTrack, currentTrackQueryOptions } from './api/get-current-track';
export { useRecentTracks, recentTracksQueryOptions } from './api/get-recent-tracks';
