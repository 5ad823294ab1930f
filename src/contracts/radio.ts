import { z } from 'zod';
import { METADATA_SERVICE, NOW_PLAYING_EVENT, RECOMMENDATIONS_MAX, TRACK_LIST_MAX, searchUrls } from './radio-values';
import { textField } from './text-field';

export { METADATA_SERVICE, NOW_PLAYING_EVENT, RECOMMENDATIONS_MAX, TRACK_LIST_MAX, searchUrls };

/**
 * Radio and track payloads, shared by server and web.
 *
 * Access (decided by the radio server; docs/decisions/0005-radio-now-playing-and-tracks.md):
 * - live metadata, SSE events, current track, recent tracks: public (the stream broadcasts its titles anyway);
 * - recommendations: dhr1 and above (track identification is a DHR1 feature);
 * - /api/admin/track-history: admin; /api/vip/track-history: vip.
 */

/** A channel id as used in URLs: 'dhr1', 'dhr2', ... (channels are data). */
export const channelIdSchema = textField(64)
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'Channel must be a channel id such as dhr1 or dhr2');

export const channelParamsSchema = z.object({ channel: channelIdSchema });

export const TRACK_SERVICES = ['audd', 'acrcloud', METADATA_SERVICE] as const;
export const trackServiceSchema = z.enum(TRACK_SERVICES);
export type TrackService = z.infer<typeof trackServiceSchema>;

/**
 * GET /api/live-metadata[?t=], GET /api/live-metadata/{channel}[?t=&nocache=1].
 * 200 while the channel is on air; 503 (error envelope, code 'channel_offline') when its Icecast
 * mount is down or has not been read yet, so clients show their fallbacks.
 */
export const liveMetadataSchema = z.object({
  artist: z.string(),
  title: z.string(),
  album: z.string(),
  /** The raw "Artist - Title" line as Icecast sends it. */
  current_track: z.string().optional(),
  /** Listeners on the mount, when Icecast reports them. */
  listeners: z.number().int().nonnegative().nullable().optional(),
  /** Kbit/s, when Icecast reports it. */
  bitrate: z.number().nonnegative().nullable().optional(),
  /** ISO time the server last saw this title change. */
  updatedAt: z.string().optional(),
});
export type LiveMetadata = z.infer<typeof liveMetadataSchema>;

/** GET /api/live-metadata: the song, and the station as directories list it. */
export const liveMetadataReplySchema = liveMetadataSchema.extend({
  /** What directories list the station by (the operator's STATION_* settings): its genre, ISO 3166-1 country and BCP 47 language. */
  genre: z.string().optional(),
  country: z.string().optional(),
  language: z.string().optional(),
  /** The mount's codec ('mp3', 'aac', 'ogg', 'opus', 'flac'), when Icecast reports it. */
  codec: z.string().nullable().optional(),
});
export type LiveMetadataReply = z.infer<typeof liveMetadataReplySchema>;

export const liveMetadataQuerySchema = z.object({
  t: textField(64).optional(),
  nocache: textField(16).optional(),
});

/**
 * Data of one `now-playing` SSE event: the channel's metadata plus `channel` and `online`.
 * When `online` is false the channel is down; artist/title are then empty and clients show their fallbacks.
 */
export const nowPlayingEventSchema = liveMetadataSchema.extend({
  channel: z.string(),
  online: z.boolean(),
});
export type NowPlayingEvent = z.infer<typeof nowPlayingEventSchema>;

/** GET /api/track-monitor/current/{channel} (the current track monitor response). */
export const currentTrackSchema = z.object({
  title: z.string(),
  artist: z.string(),
  artwork: z.string().nullable(),
  service: trackServiceSchema,
  /** 0-100. */
  confidence: z.number().min(0).max(100),
  /** ISO time of identification. */
  timestamp: z.string(),
  youtubeUrl: z.string().nullable(),
  soundcloudUrl: z.string().nullable(),
  spotifyUrl: z.string().nullable(),
  genre: z.string().nullable().optional(),
  bpm: z.number().nullable().optional(),
});
export type CurrentTrack = z.infer<typeof currentTrackSchema>;

export const trackMonitorResponseSchema = z.object({
  track: currentTrackSchema.nullable(),
  /** Whether the monitor is running for this channel (false: 'Monitor stopped'). */
  isActive: z.boolean(),
});
export type TrackMonitorResponse = z.infer<typeof trackMonitorResponseSchema>;

/** A recent track / track identification, as listed by recent tracks and track history. */
export const trackIdentificationSchema = z.object({
  id: z.string(),
  channel: z.string(),
  title: z.string(),
  artist: z.string(),
  album: z.string().nullable(),
  artwork: z.string().nullable(),
  /** Percent, 0-100. */
  confidence: z.number().min(0).max(100),
  service: trackServiceSchema,
  /** Seconds. */
  duration: z.number().int().nonnegative().nullable(),
  releaseDate: z.string().nullable(),
  label: z.string().nullable(),
  genre: z.string().nullable(),
  bpm: z.number().nullable(),
  /** ISO time. */
  identifiedAt: z.string(),
  youtubeUrl: z.string().nullable(),
  soundcloudUrl: z.string().nullable(),
  spotifyUrl: z.string().nullable(),
});
export type TrackIdentification = z.infer<typeof trackIdentificationSchema>;

/** GET /api/tracks/recent/{channel}?limit= (default 20, at most 1000): newest first. */
/** Recent identifications listed when the request names no limit. */
export const DEFAULT_RECENT_LIMIT = 20;
export const recentTracksQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(TRACK_LIST_MAX).default(DEFAULT_RECENT_LIMIT),
});
export const recentTracksResponseSchema = z.array(trackIdentificationSchema);

/** POST /api/tracks/recommendations (dhr1+). */
export const recommendationRequestSchema = z.object({
  artist: textField(300).trim().min(1, 'Artist is required'),
  title: textField(300).trim().min(1, 'Title is required'),
  channel: channelIdSchema.default('dhr1'),
});
export type RecommendationRequest = z.infer<typeof recommendationRequestSchema>;

export const recommendationSchema = z.object({
  title: z.string(),
  artist: z.string(),
  youtubeUrl: z.string(),
  soundcloudUrl: z.string(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;
/** At most 3, drawn from the station's own history; empty when it knows nothing related. */
export const recommendationsResponseSchema = z.array(recommendationSchema).max(RECOMMENDATIONS_MAX);

/** GET /api/admin/track-history and GET /api/vip/track-history: ?channel= (all when absent), ?limit= (default and max 1000). */
export const trackHistoryQuerySchema = z.object({
  channel: channelIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(TRACK_LIST_MAX).default(TRACK_LIST_MAX),
});

export const trackHistoryStatsSchema = z.object({
  /** Every stored identification (not only the listed ones). */
  total: z.number().int(),
  uniqueArtists: z.number().int(),
  /** Confidence at least 80. */
  highConfidence: z.number().int(),
  /** Identifications with at least one YouTube, SoundCloud or Spotify URL. */
  withLinks: z.number().int(),
  /** ISO times of the oldest and newest identification, null when empty. */
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
});
export type TrackHistoryStats = z.infer<typeof trackHistoryStatsSchema>;

export const trackHistoryResponseSchema = z.object({
  tracks: z.array(trackIdentificationSchema),
  stats: trackHistoryStatsSchema,
});
export type TrackHistoryResponse = z.infer<typeof trackHistoryResponseSchema>;

/** DELETE /api/admin/track-history[?channel=] (admin). */
export const trackHistoryDeleteQuerySchema = z.object({ channel: channelIdSchema.optional() });
export const trackHistoryDeleteResponseSchema = z.object({ deleted: z.number().int() });

/** GET /api/health/metadata (admin): how the Icecast reader and the track monitor are doing, per channel. */
export const metadataHealthSchema = z.object({
  channels: z.array(
    z.object({
      channel: z.string(),
      name: z.string(),
      streamUrl: z.string(),
      statusUrl: z.string().nullable(),
      online: z.boolean(),
      artist: z.string(),
      title: z.string(),
      listeners: z.number().nullable(),
      bitrate: z.number().nullable(),
      /** ISO time of the last title change seen. */
      updatedAt: z.string().nullable(),
      /** ISO time of the last successful status read. */
      lastReadAt: z.string().nullable(),
      consecutiveFailures: z.number().int(),
      lastError: z.string().nullable(),
      monitorActive: z.boolean(),
    }),
  ),
  recognizer: z.enum(['none', 'audd', 'acrcloud']),
  pollIntervalS: z.number(),
  monitorIntervalS: z.number(),
  sseClients: z.number().int(),
});
export type MetadataHealth = z.infer<typeof metadataHealthSchema>;
