import { createHmac } from 'node:crypto';
import type { TrackService } from '../../../contracts/radio';
import { callService, FetchError, serviceJson } from '../../lib/outbound-http';

/** What a recogniser (or the stream metadata) says is playing; URLs are direct links only, never searches. */
export interface Recognition {
  title: string;
  artist: string;
  album: string | null;
  artwork: string | null;
  /** 0-100. */
  confidence: number;
  service: TrackService;
  durationS: number | null;
  releaseDate: string | null;
  /** International Standard Recording Code, when the recogniser gives one. */
  isrc: string | null;
  label: string | null;
  genre: string | null;
  bpm: number | null;
  youtubeUrl: string | null;
  soundcloudUrl: string | null;
  spotifyUrl: string | null;
}

export class RecognizerError extends Error {}

/** An ISRC as ISO 3901 writes it (CC-XXX-YY-NNNNN, hyphens optional), upper-cased without hyphens; anything else is none. */
export function isrcOf(value: string | null): string | null {
  const code = value?.replace(/-/g, '').toUpperCase() ?? '';
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(code) ? code : null;
}

const MAX_TEXT = 300;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, MAX_TEXT) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : null);
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Only http(s) links are passed on to the browser. */
const httpUrl = (v: unknown): string | null => {
  const s = str(v);
  return s && /^https?:\/\//i.test(s) ? s : null;
};
const clampConfidence = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

/** The largest sample sent to a recogniser (10 s at 320 kbit/s is 400 KB). */
const MAX_SAMPLE_BYTES = 1024 * 1024;

/**
 * Reads about `seconds` of audio from an Icecast mount with a plain GET: bitrate x seconds bytes,
 * then the connection is dropped. No decoding is needed; recognisers accept MP3/AAC fragments.
 */
export async function captureAudio(streamUrl: string, seconds: number, bitrateKbps: number, timeoutMs = (seconds + 10) * 1000): Promise<Buffer> {
  const want = Math.min(MAX_SAMPLE_BYTES, Math.ceil((bitrateKbps * 1000 * seconds) / 8));
  let sample: Buffer;
  try {
    // The download ends once `want` bytes are in: an Icecast mount never ends by itself.
    ({ body: sample } = await callService(streamUrl, {
      headers: { 'icy-metadata': '0' },
      timeoutMs,
      maxBytes: want,
      overflow: 'truncate',
      maxRedirects: 5,
    }));
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.code === 'http') throw new RecognizerError(`stream answered ${err.status ?? '?'}`);
    if (err.code === 'timeout') throw new RecognizerError(`no ${seconds}s of audio within ${timeoutMs} ms`);
    throw new RecognizerError(`stream at ${err.host}: ${err.message}`);
  }
  if (sample.byteLength === 0) throw new RecognizerError('stream sent no audio');
  return sample;
}

async function postForm(url: string, form: FormData, timeoutMs: number): Promise<unknown> {
  try {
    return await serviceJson(url, { method: 'POST', body: form, timeoutMs, maxRedirects: 5 });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.code === 'http') throw new RecognizerError(`${url} answered ${err.status ?? '?'}`);
    if (err.code === 'not_json') throw new RecognizerError(`${url} answered with something other than JSON`);
    throw new RecognizerError(`${url}: ${err.message}`);
  }
}

export interface AuddOptions {
  apiUrl: string;
  apiToken: string;
  timeoutMs?: number;
}

/** AudD standard recognition: null when AudD found no match; throws on an error reply. */
export async function recognizeAudd(sample: Buffer, opts: AuddOptions): Promise<Recognition | null> {
  const form = new FormData();
  form.append('api_token', opts.apiToken);
  form.append('return', 'apple_music,spotify');
  form.append('file', new Blob([new Uint8Array(sample)], { type: 'audio/mpeg' }), 'sample.mp3');
  return parseAuddReply(await postForm(opts.apiUrl, form, opts.timeoutMs ?? 20_000));
}

export function parseAuddReply(doc: unknown): Recognition | null {
  const reply = obj(doc);
  if (reply.status === 'error') {
    const e = obj(reply.error);
    throw new RecognizerError(`AudD error ${String(e.error_code ?? '?')}: ${str(e.error_message) ?? 'unknown'}`);
  }
  if (reply.status !== 'success') throw new RecognizerError('AudD reply has no status');
  if (reply.result === null || reply.result === undefined) return null;
  const r = obj(reply.result);
  const title = str(r.title);
  const artist = str(r.artist);
  if (!title || !artist) return null;
  const spotify = obj(r.spotify);
  const apple = obj(r.apple_music);
  const spotifyImages = arr(obj(spotify.album).images).map(obj);
  const appleArtwork = str(obj(apple.artwork).url)?.replace('{w}', '300').replace('{h}', '300') ?? null;
  const durationMs = int(spotify.duration_ms) ?? int(apple.durationInMillis);
  // AudD's standard reply carries a match only when it is sure; stream callbacks add `score`.
  const score = typeof r.score === 'number' ? r.score : Number.NaN;
  return {
    title,
    artist,
    album: str(r.album),
    artwork: httpUrl(spotifyImages[0]?.url) ?? httpUrl(appleArtwork),
    confidence: Number.isFinite(score) ? clampConfidence(score) : 100,
    service: 'audd',
    durationS: durationMs === null ? null : Math.round(durationMs / 1000),
    releaseDate: str(r.release_date),
    isrc: isrcOf(str(obj(spotify.external_ids).isrc) ?? str(apple.isrc)),
    label: str(r.label),
    genre: str(arr(apple.genreNames)[0]),
    bpm: null,
    youtubeUrl: null,
    soundcloudUrl: null,
    spotifyUrl: httpUrl(obj(spotify.external_urls).spotify),
  };
}

export interface AcrCloudOptions {
  /** 'identify-eu-west-1.acrcloud.com', or a full origin such as 'http://127.0.0.1:8080' (tests, proxies). */
  host: string;
  accessKey: string;
  accessSecret: string;
  timeoutMs?: number;
}

/** base64(HMAC-SHA1(secret, "POST\n/v1/identify\n{key}\naudio\n1\n{timestamp}")) — ACRCloud's v1 signature. */
export function acrCloudSignature(accessKey: string, accessSecret: string, timestamp: string): string {
  const stringToSign = ['POST', '/v1/identify', accessKey, 'audio', '1', timestamp].join('\n');
  return createHmac('sha1', accessSecret).update(stringToSign).digest('base64');
}

export async function recognizeAcrCloud(sample: Buffer, opts: AcrCloudOptions, now = new Date()): Promise<Recognition | null> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const form = new FormData();
  form.append('access_key', opts.accessKey);
  form.append('data_type', 'audio');
  form.append('signature_version', '1');
  form.append('timestamp', timestamp);
  form.append('signature', acrCloudSignature(opts.accessKey, opts.accessSecret, timestamp));
  form.append('sample_bytes', String(sample.byteLength));
  form.append('sample', new Blob([new Uint8Array(sample)], { type: 'audio/mpeg' }), 'sample.mp3');
  const origin = /^https?:\/\//i.test(opts.host) ? opts.host.replace(/\/+$/, '') : `https://${opts.host}`;
  return parseAcrCloudReply(await postForm(`${origin}/v1/identify`, form, opts.timeoutMs ?? 20_000));
}

export function parseAcrCloudReply(doc: unknown): Recognition | null {
  const status = obj(obj(doc).status);
  const code = status.code;
  if (code === 1001) return null;
  if (code !== 0) throw new RecognizerError(`ACRCloud error ${String(code ?? '?')}: ${str(status.msg) ?? 'unknown'}`);
  const music = obj(arr(obj(obj(doc).metadata).music)[0]);
  const title = str(music.title);
  const artist = arr(music.artists)
    .map((a) => str(obj(a).name))
    .filter((n): n is string => n !== null)
    .join(', ');
  if (!title || !artist) return null;
  const ext = obj(music.external_metadata);
  const vid = str(obj(ext.youtube).vid);
  const spotifyTrack = str(obj(obj(ext.spotify).track).id);
  const durationMs = int(music.duration_ms);
  const score = typeof music.score === 'number' ? music.score : Number(music.score);
  return {
    title,
    artist: artist.slice(0, MAX_TEXT),
    album: str(obj(music.album).name),
    artwork: null,
    confidence: Number.isFinite(score) ? clampConfidence(score) : 100,
    service: 'acrcloud',
    durationS: durationMs === null ? null : Math.round(durationMs / 1000),
    releaseDate: str(music.release_date),
    isrc: isrcOf(str(obj(music.external_ids).isrc)),
    label: str(music.label),
    genre: str(obj(arr(music.genres)[0]).name),
    bpm: null,
    youtubeUrl: vid && /^[\w-]{6,20}$/.test(vid) ? `https://www.youtube.com/watch?v=${vid}` : null,
    soundcloudUrl: null,
    spotifyUrl: spotifyTrack && /^\w{10,40}$/.test(spotifyTrack) ? `https://open.spotify.com/track/${spotifyTrack}` : null,
  };
}
