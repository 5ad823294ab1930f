// The tracks feature's public surface: other features import only from here.
export { LiveTrackCard } from './components/live-track-card';
export { RecentTracksWidget } from './components/recent-tracks-widget';
