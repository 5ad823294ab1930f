import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_STORE_URL } from '../contracts/shop-catalogue';

const boolish = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.string().url().optional();

/**
 * Every environment variable DHR reads, parsed once at start-up. Each one's `.describe()` is its
 * documentation: `docs/configuration.md` is generated from this schema (`npm run docs`), and a test
 * fails when the page and the schema differ.
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('HTTP port.'),
  HOST: z.string().default('0.0.0.0').describe('Listen address.'),
  PUBLIC_URL: z
    .string()
    .url()
    .optional()
    .describe("The site's public address (unset: `http://localhost:$PORT`): links in mails, canonical URLs; `https://` turns on `Secure` cookies and HSTS."),
  DATA_DIR: z.string().default('./data').describe('Embedded database (`db/`), mail outbox (`outbox/`), media (`media/`).'),
  DATABASE_URL: z.string().url().optional().describe('PostgreSQL URL; unset means PGlite under `DATA_DIR/db`.'),
  SMTP_URL: z
    .string()
    .url()
    .optional()
    .describe('For example `smtps://user:pass@smtp.example.com`; unset writes each mail as an `.eml` file in `DATA_DIR/outbox/`.'),
  MAIL_FROM: z.string().default('Deep House Radio <no-reply@dhr.local>').describe('Sender of sign-in links and codes.'),
  SEED_DEMO: boolish
    .default(true)
    .describe('Seed the demo catalogue (sample mixes, products, news; never users) on the first start of a fresh database; later starts never seed again.'),
  PGLITE_OPTIMIZE: boolish
    .default(false)
    .describe(
      "Also compile the embedded database's WebAssembly with V8's optimizing tier: faster large scans, about 55 MB more memory, a slower first start (ADR 0026). No effect on PostgreSQL.",
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('Log level (pino).'),
  DHR1_STREAM_URL: z
    .string()
    .url()
    .default('http://127.0.0.1:8000/dhr1')
    .describe("The first channel's premium mount; never listed publicly: a member gets it with a short-lived token from `GET /api/channels/{id}/stream`."),
  DHR2_STREAM_URL: z.string().url().default('http://127.0.0.1:8000/dhr2').describe("The second channel's premium mount (as DHR1_STREAM_URL)."),
  DHR1_FREE_STREAM_URL: z
    .string()
    .url()
    .default('http://127.0.0.1:8000/dhr1-free')
    .describe("The public 128 kbps mount of the first channel's programme; the home player and `/player` play it, no account needed."),
  STREAM_AUTH_KEY: z
    .string()
    .min(16, 'at least 16 characters')
    .optional()
    .describe(
      "16+ characters shared with the streaming host: Icecast sends it (HTTP Basic password) on every listener check, and the stream tokens' HMAC key is derived from it. Unset: premium mounts admit nobody (a warning at start).",
    ),
  STREAM_MAX_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(20)
    .default(2)
    .describe(
      "Premium-stream connections one member may hold at once, across mounts (a phone and a laptop); Icecast refuses the next one until one ends. The admin's user view lists them.",
    ),
  DHR1_STATUS_URL: optionalUrl.describe("Icecast status JSON of the first channel; unset: the stream's origin + `/status-json.xsl`."),
  DHR2_STATUS_URL: optionalUrl.describe("Icecast status JSON of the second channel; unset: the stream's origin + `/status-json.xsl`."),
  ICECAST_ADMIN_USER: z.string().max(200).default('admin').describe("Icecast's admin user, for reading each premium mount's listener list."),
  ICECAST_ADMIN_PASSWORD: z
    .string()
    .max(200)
    .optional()
    .describe(
      "Icecast's admin password. DHR reads each premium mount's listener list (`/admin/listclients`) with it: to admit a member's connection past the cap only when Icecast no longer holds an older one, and to end connection rows whose listener_remove never came, and every mount's listener list for the listening sessions /analytics reports. Unset: a member at the cap is refused until a connection ends, and no listening is recorded.",
    ),
  METADATA_POLL_S: z.coerce
    .number()
    .positive()
    .default(10)
    .describe("How often Icecast's status is read, in seconds: listener figures, and titles while no in-band title reader is connected."),
  ICY_TITLES: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      "`on`: DHR holds one connection to each channel's mount and reads the titles inside the stream (ICY metadata), so a title change reaches the site within about a second; that connection is not counted as a listener. `off`: titles come from the status poll only.",
    ),
  TRACK_MONITOR_INTERVAL_S: z.coerce.number().positive().default(120).describe('How often the playing track is identified, in seconds.'),
  RECOGNIZER: z.enum(['none', 'audd', 'acrcloud']).default('none').describe('Track recognition service.'),
  AUDD_API_URL: z.string().url().default('https://api.audd.io/').describe('AudD endpoint.'),
  STATION_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code, such as IE')
    .default('IE')
    .describe("The station's country (ISO 3166-1 alpha-2), as directories list it: in the now-playing documents, the playlists and the structured data."),
  STATION_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 language tag, such as en')
    .default('en')
    .describe('The language the station speaks (BCP 47), as directories list it: in the now-playing documents, the playlists and the structured data.'),
  STATION_GENRE: z
    .string()
    .min(1)
    .max(60)
    .default('Deep House')
    .describe("The station's genre, as directories list it: in the now-playing documents, the playlists and the structured data."),
  AUDD_API_TOKEN: z.string().optional().describe('AudD API token.'),
  ACRCLOUD_HOST: z.string().optional().describe('ACRCloud host.'),
  ACRCLOUD_ACCESS_KEY: z.string().optional().describe('ACRCloud access key.'),
  ACRCLOUD_ACCESS_SECRET: z.string().optional().describe('ACRCloud access secret.'),
  PATREON_API_URL: z.string().url().default('https://www.patreon.com').describe('Patreon API origin (members sync, webhooks, Connect Patreon).'),
  PATREON_ACCESS_TOKEN: z.string().optional().describe("Patreon creator's access token for the members sync."),
  PATREON_CAMPAIGN_ID: z.string().optional().describe('The Patreon campaign whose members are synced.'),
  PATREON_WEBHOOK_SECRET: z.string().optional().describe("Secret of Patreon's webhook signatures."),
  PATREON_PAGE_URL: z.string().url().default('https://www.patreon.com/deephouseradio').describe('Where "upgrade" buttons send members.'),
  PATREON_CLIENT_ID: z
    .string()
    .max(200)
    .optional()
    .describe(
      'The Patreon OAuth client behind **Connect Patreon** (a member links a Patreon account paid under another email); register `PUBLIC_URL` + `/auth/patreon` as its redirect URI. Unset: the button is hidden.',
    ),
  PATREON_CLIENT_SECRET: z.string().max(200).optional().describe('The Patreon OAuth client secret.'),
  BMC_API_URL: z.string().url().default('https://developers.buymeacoffee.com').describe('Buy Me a Coffee API origin.'),
  BMC_ACCESS_TOKEN: z.string().optional().describe('Buy Me a Coffee access token for the subscriptions sync.'),
  BMC_WEBHOOK_SECRET: z.string().optional().describe("Secret of Buy Me a Coffee's webhook signatures."),
  BMC_PAGE_URL: z.string().url().default('https://www.buymeacoffee.com/deephouseradio').describe('Where "support" buttons send members.'),
  SYNC_INTERVAL_MIN: z.coerce.number().positive().default(60).describe('Minutes between scheduled subscription syncs.'),
  ADMIN_SETUP_TOKEN: z
    .string()
    .min(16, 'at least 16 characters')
    .max(200)
    .optional()
    .describe(
      '16+ characters: the secret `/admin-setup` asks for when creating the first admin. Unset: while no admin exists, a one-time token is generated at start and logged once (warn level).',
    ),
  TRUST_PROXY: z
    .string()
    .regex(/^(\d+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, 'a hop count or comma-separated addresses/CIDRs')
    .optional()
    .describe(
      'Which proxies may set `X-Forwarded-For` (client addresses drive the per-address limits): unset trusts none. Prefer addresses/CIDRs (`10.0.0.0/8,127.0.0.1`); with a hop count (`1`) any client that reaches the server directly chooses its own address (a warning is logged when `HOST` is not loopback).',
    ),
  METRICS_TOKEN: z
    .string()
    .min(16, 'at least 16 characters')
    .optional()
    .describe('16+ characters: bearer token for `GET /metrics` (Prometheus). Unset: only a signed-in admin may read it.'),
  CONTACT_EMAIL: z.email().optional().describe('Where contact-form messages and DJ submissions are mailed. Unset: they wait in the admin inboxes only.'),
  SHOP_STORE_URL: z
    .string()
    .url()
    .default(DEFAULT_STORE_URL)
    .describe("The print-on-demand store the shop's checkout opens, and the link of a product without its own store link."),
  SSE_MAX_PER_IP: z.coerce
    .number()
    .int()
    .positive()
    .default(4)
    .describe('Live event streams (`GET /api/live/events`) one client address may hold open; beyond, 503 with `Retry-After`.'),
  SSE_MAX_TOTAL: z.coerce.number().int().positive().default(2000).describe('Live event streams this instance holds open at once, all clients together.'),
  S3_ENDPOINT: optionalUrl.describe('A non-AWS S3-compatible store (MinIO, R2…; path-style addressing).'),
  S3_BUCKET: z.string().min(3).max(63).optional().describe('Keep mixes and images in this S3-compatible bucket instead of `DATA_DIR/media`.'),
  S3_REGION: z.string().max(64).default('us-east-1').describe("The bucket's region."),
  S3_ACCESS_KEY_ID: z.string().max(256).optional().describe("S3 key id; set both keys or neither (neither: the AWS SDK's default credentials)."),
  S3_SECRET_ACCESS_KEY: z.string().max(256).optional().describe('S3 secret key.'),
  MIX_MAX_MB: z.coerce.number().int().positive().max(50_000).default(1024).describe('Largest mix an admin may upload, in MB.'),
  MIX_STREAM_DAILY_MB: z.coerce
    .number()
    .positive()
    .max(10_000_000)
    .default(3072)
    .describe('VIP mix audio one member may stream per Dublin day, in MB (fractions allowed); past it, 429 until midnight Dublin time.'),
  MIX_STREAM_LINK_TTL_S: z.coerce
    .number()
    .int()
    .min(2)
    .max(86_400)
    .default(900)
    .describe('Lifetime of a VIP mix stream link, in seconds; the player fetches a fresh link before each one expires and keeps its position.'),
  FFMPEG_PATH: z
    .string()
    .min(1)
    .max(500)
    .default('ffmpeg')
    .describe("The ffmpeg binary that makes the mixes' listening copies; without it copies fail and only VIPs play (the master)."),
  NEWS_FEEDS: z
    .string()
    .max(20_000)
    .refine(
      (v) => parseNewsFeeds(v).every((f) => /^https?:\/\/[^\s]+$/i.test(f.url)),
      'http(s) addresses separated by commas or spaces (web pages prefixed web:)',
    )
    .optional()
    .describe(
      'News sources added on a first start (admins manage them at `/admin/news-sources` afterwards): addresses separated by commas or spaces; a feed as is, a web page read for its meta tags prefixed `web:`.',
    ),
  NEWS_POLL_MIN: z.coerce.number().positive().default(30).describe('How often each news source is fetched, in minutes.'),
  NEWS_ALLOW_PRIVATE: boolish
    .default(false)
    .describe('Let news fetches reach private and loopback addresses. For tests on loopback only; never in production.'),
});

export type Env = z.infer<typeof envSchema>;

/** NEWS_FEEDS → the sources it names: `web:` marks a web page, anything else is a feed. */
export function parseNewsFeeds(value: string | undefined): { kind: 'rss' | 'web'; url: string }[] {
  if (!value) return [];
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => (entry.toLowerCase().startsWith('web:') ? { kind: 'web' as const, url: entry.slice(4) } : { kind: 'rss' as const, url: entry }));
}

export interface Config extends Env {
  PUBLIC_URL: string;
  /** Absolute data directory. */
  dataDir: string;
  /** Whether cookies get the Secure flag (PUBLIC_URL is https). */
  secureCookies: boolean;
  /** Background jobs (pollers, schedulers); tests turn them off. */
  backgroundJobs: boolean;
  /** Keep PGlite in memory instead of under DATA_DIR (tests). */
  memoryDb: boolean;
}

export class ConfigError extends Error {}

/** S3_* variables that cannot work together; undefined when they are fine (or all unset). */
function s3SettingsProblem(e: Env): string | undefined {
  const anyS3 = e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY;
  if (anyS3 && !e.S3_BUCKET) return 'S3_BUCKET: required when S3_ENDPOINT or S3 keys are set';
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) return 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither';
  return undefined;
}

/** Parse the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  // Empty strings in env files mean "unset", as most operators expect.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const s3Problem = s3SettingsProblem(e);
  if (s3Problem) throw new ConfigError(`Invalid configuration:\n  ${s3Problem}`);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    ...e,
    PUBLIC_URL: publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    secureCookies: publicUrl.startsWith('https://'),
    backgroundJobs: true,
    memoryDb: false,
    ...overrides,
  };
}
