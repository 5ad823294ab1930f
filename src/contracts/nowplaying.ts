import { z } from 'zod';
import { textField } from './text-field';

/**
 * The radio ecosystem's AzuraCast API (0.23), as DHR answers it: GET /api/nowplaying, /api/nowplaying/{station},
 * /api/nowplaying_static/{shortcode}.json, /api/stations, /api/station/{station}, /api/time and the
 * now-playing SSE stream. Field names, types and nullability follow AzuraCast's published OpenAPI
 * schemas (tests/fixtures/azuracast/ holds the parts DHR answers, and every reply is checked against
 * them), so widgets, apps and directories read DHR unchanged. Only a channel's free mount is ever a
 * listen URL: premium mounts need a member's token and never appear here.
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
  /** Always a URL: the identified track's artwork, else the station's. */
  art: z.string(),
  custom_fields: z.array(z.string()),
});

export const azuraSongHistorySchema = z.object({
  /** A small integer, unique per play and the same on every instance (DHR: seconds from 2026 to the play's start). */
  sh_id: z.number().int(),
  /** Unix seconds when the song started. */
  played_at: z.number().int(),
  duration: z.number().int(),
  playlist: z.string().nullable(),
  streamer: z.string().nullable(),
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
  timezone: z.string(),
  listen_url: z.string().nullable(),
  url: z.string().nullable(),
  public_player_url: z.string(),
  playlist_pls_url: z.string(),
  playlist_m3u_url: z.string(),
  /** Listed by /api/nowplaying and /api/stations: a channel with a free mount. */
  is_public: z.boolean(),
  requests_enabled: z.boolean(),
  mounts: z.array(azuraMountSchema),
  remotes: z.array(azuraMountSchema.omit({ path: true, is_default: true })),
  hls_enabled: z.boolean(),
  hls_is_default: z.boolean(),
  hls_url: z.string().nullable(),
  hls_listeners: z.number().int(),
});
export type AzuraStation = z.infer<typeof azuraStationSchema>;
export const azuraStationListSchema = z.array(azuraStationSchema);

export const azuraStationNowPlayingSchema = z.object({
  station: azuraStationSchema,
  listeners: azuraListenersSchema,
  live: z.object({ is_live: z.boolean(), streamer_name: z.string(), broadcast_start: z.number().int().nullable(), art: z.string().nullable() }),
  now_playing: azuraNowPlayingSchema.nullable(),
  playing_next: z
    .object({
      cued_at: z.number().int(),
      played_at: z.number().int().nullable(),
      duration: z.number(),
      playlist: z.string().nullable(),
      is_request: z.boolean(),
      song: azuraSongSchema,
    })
    .nullable(),
  song_history: z.array(azuraSongHistorySchema),
  is_online: z.boolean(),
  cache: z.enum(['hit', 'database', 'station']).nullable(),
});
export type AzuraStationNowPlaying = z.infer<typeof azuraStationNowPlayingSchema>;
export const azuraNowPlayingListSchema = z.array(azuraStationNowPlayingSchema);

/** GET /api/time (AzuraCast's Api_Time). */
export const azuraTimeSchema = z.object({
  timestamp: z.number().int(),
  utc_datetime: z.string(),
  utc_date: z.string(),
  utc_time: z.string(),
  utc_json: z.string(),
});
export type AzuraTime = z.infer<typeof azuraTimeSchema>;

/** A station named by its numeric id or its shortcode (any case), as AzuraCast accepts both. */
export const nowPlayingShortcodeParamsSchema = z.object({ shortcode: textField(40).min(1) });

/** `cf_connect` of the SSE stream: Centrifugo's connect request, `{"subs":{"station:<shortcode>":{}}}` as JSON. */
export const azuraSseQuerySchema = z.object({ cf_connect: textField(2000).optional() });
