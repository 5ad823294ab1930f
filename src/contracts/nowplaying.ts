import { z } from 'zod';
import { textField } from './text-field';

/**
 * GET /api/nowplaying and /api/nowplaying/{shortcode}: the now-playing document radio widgets, apps and
 * directories read from AzuraCast stations (field names and types as AzuraCast publishes them), so
 * they can read DHR unchanged. Only a channel's free mount is ever a listen URL: premium mounts need a
 * member's token and never appear here.
 */
export const azuraListenersSchema = z.object({ total: z.number().int(), unique: z.number().int(), current: z.number().int() });

export const azuraMountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  bitrate: z.number().int().nullable(),
  format: z.string().nullable(),
  listeners: azuraListenersSchema,
  path: z.string(),
  is_default: z.boolean(),
});

export const azuraSongSchema = z.object({
  id: z.string(),
  text: z.string(),
  artist: z.string(),
  title: z.string(),
  album: z.string(),
  genre: z.string(),
  isrc: z.string(),
  lyrics: z.string(),
  art: z.string(),
  custom_fields: z.array(z.unknown()),
});

export const azuraSongHistorySchema = z.object({
  sh_id: z.number().int(),
  /** Unix seconds when the song started. */
  played_at: z.number().int(),
  duration: z.number().int(),
  playlist: z.string(),
  streamer: z.string(),
  is_request: z.boolean(),
  song: azuraSongSchema,
});

export const azuraNowPlayingSchema = azuraSongHistorySchema.extend({
  elapsed: z.number().int(),
  remaining: z.number().int(),
});

export const azuraStationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  shortcode: z.string(),
  description: z.string(),
  frontend: z.string(),
  backend: z.string(),
  listen_url: z.string(),
  url: z.string(),
  public_player_url: z.string(),
  playlist_pls_url: z.string(),
  playlist_m3u_url: z.string(),
  is_public: z.boolean(),
  mounts: z.array(azuraMountSchema),
  remotes: z.array(z.unknown()),
  hls_enabled: z.boolean(),
  hls_url: z.string().nullable(),
});

export const azuraStationNowPlayingSchema = z.object({
  station: azuraStationSchema,
  listeners: azuraListenersSchema,
  live: z.object({ is_live: z.boolean(), streamer_name: z.string(), broadcast_start: z.number().int().nullable(), art: z.string().nullable() }),
  now_playing: azuraNowPlayingSchema,
  playing_next: azuraSongHistorySchema.nullable(),
  song_history: z.array(azuraSongHistorySchema),
  is_online: z.boolean(),
  cache: z.string().nullable(),
});
export type AzuraStationNowPlaying = z.infer<typeof azuraStationNowPlayingSchema>;
export const azuraNowPlayingListSchema = z.array(azuraStationNowPlayingSchema);

export const nowPlayingShortcodeParamsSchema = z.object({ shortcode: textField(40).min(1) });
