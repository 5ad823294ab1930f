import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_STORE_URL } from '../contracts/shop-catalogue';

const boolish = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.string().url().optional();

/** Every environment variable DHR reads, parsed once at start-up; the README lists them. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Deep House Radio <no-reply@dhr.local>'),
  SEED_DEMO: boolish.default(true),
  /** Compile the embedded database's WebAssembly with V8's optimizing tier too: faster large scans, ~55 MB more memory. */
  PGLITE_OPTIMIZE: boolish.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DHR1_STREAM_URL: z.string().url().default('http://127.0.0.1:8000/dhr1'),
  DHR2_STREAM_URL: z.string().url().default('http://127.0.0.1:8000/dhr2'),
  /** The public 128 kbps mount of the DHR1 programme (no account needed). */
  DHR1_FREE_STREAM_URL: z.string().url().default('http://127.0.0.1:8000/dhr1-free'),
  /** Shared with the streaming host: keys its listener-auth calls and the stream tokens' HMAC. */
  STREAM_AUTH_KEY: z.string().min(16, 'at least 16 characters').optional(),
  /** Premium-stream connections one member may hold at once, across mounts (a phone and a laptop). */
  STREAM_MAX_CONCURRENT: z.coerce.number().int().min(1).max(20).default(2),
  DHR1_STATUS_URL: optionalUrl,
  DHR2_STATUS_URL: optionalUrl,
  METADATA_POLL_S: z.coerce.number().positive().default(10),
  TRACK_MONITOR_INTERVAL_S: z.coerce.number().positive().default(120),
  RECOGNIZER: z.enum(['none', 'audd', 'acrcloud']).default('none'),
  AUDD_API_URL: z.string().url().default('https://api.audd.io/'),
  AUDD_API_TOKEN: z.string().optional(),
  ACRCLOUD_HOST: z.string().optional(),
  ACRCLOUD_ACCESS_KEY: z.string().optional(),
  ACRCLOUD_ACCESS_SECRET: z.string().optional(),
  PATREON_API_URL: z.string().url().default('https://www.patreon.com'),
  PATREON_ACCESS_TOKEN: z.string().optional(),
  PATREON_CAMPAIGN_ID: z.string().optional(),
  PATREON_WEBHOOK_SECRET: z.string().optional(),
  PATREON_PAGE_URL: z.string().url().default('https://www.patreon.com/deephouseradio'),
  /** Connect Patreon (OAuth client of the campaign); unset hides the button. Endpoints start at PATREON_API_URL. */
  PATREON_CLIENT_ID: z.string().max(200).optional(),
  PATREON_CLIENT_SECRET: z.string().max(200).optional(),
  BMC_API_URL: z.string().url().default('https://developers.buymeacoffee.com'),
  BMC_ACCESS_TOKEN: z.string().optional(),
  BMC_WEBHOOK_SECRET: z.string().optional(),
  BMC_PAGE_URL: z.string().url().default('https://www.buymeacoffee.com/deephouseradio'),
  SYNC_INTERVAL_MIN: z.coerce.number().positive().default(60),
  /** The secret first-admin setup asks for; unset: one is generated and logged while no admin exists. */
  ADMIN_SETUP_TOKEN: z.string().min(16, 'at least 16 characters').max(200).optional(),
  /**
   * Which proxies may set X-Forwarded-For (client IPs drive the per-IP rate limits): unset trusts
   * none; a hop count ("1"), or addresses/CIDRs separated by commas ("10.0.0.0/8,127.0.0.1").
   * Prefer addresses/CIDRs: with a hop count, any client that reaches the server directly chooses its
   * own address (a warning is logged at start when HOST is not loopback).
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(\d+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, 'a hop count or comma-separated addresses/CIDRs')
    .optional(),
  /** Bearer token for GET /metrics; unset means only an admin session may read it. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Where contact form messages and DJ submissions are mailed; unset: they wait in the admin inbox and queue only. */
  CONTACT_EMAIL: z.email().optional(),
  /** The print-on-demand store the shop's checkout opens, and a product without its own store link. */
  SHOP_STORE_URL: z.string().url().default(DEFAULT_STORE_URL),
  /** Live event streams (GET /api/live/events) one client address may hold open at once. */
  SSE_MAX_PER_IP: z.coerce.number().int().positive().default(4),
  /** Live event streams this instance holds open at once, all clients together. */
  SSE_MAX_TOTAL: z.coerce.number().int().positive().default(2000),
  /**
   * Media storage (mixes, images): set S3_BUCKET to keep files in an S3-compatible bucket instead
   * of DATA_DIR/media. S3_ENDPOINT names a non-AWS store (path-style addressing); without the key
   * pair the AWS SDK's default credential chain is used.
   */
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().max(64).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().max(256).optional(),
  S3_SECRET_ACCESS_KEY: z.string().max(256).optional(),
  /** Largest mix an admin may upload, in MB. */
  MIX_MAX_MB: z.coerce.number().int().positive().max(50_000).default(1024),
  /** VIP mix audio one member may stream per Dublin day, in MB (bytes actually sent); fractions allowed. */
  MIX_STREAM_DAILY_MB: z.coerce.number().positive().max(10_000_000).default(3072),
  /** The ffmpeg binary that makes the mixes' listening copies. */
  FFMPEG_PATH: z.string().min(1).max(500).default('ffmpeg'),
  /**
   * News sources added on a first start (admins manage them afterwards): addresses separated by commas
   * or spaces; an RSS/Atom feed as is, a web page read for its meta tags with a `web:` prefix.
   */
  NEWS_FEEDS: z
    .string()
    .max(20_000)
    .refine(
      (v) => parseNewsFeeds(v).every((f) => /^https?:\/\/[^\s]+$/i.test(f.url)),
      'http(s) addresses separated by commas or spaces (web pages prefixed web:)',
    )
    .optional(),
  /** How often each news source is fetched, in minutes. */
  NEWS_POLL_MIN: z.coerce.number().positive().default(30),
  /** Let news fetches reach private and loopback addresses. For tests on loopback only; never in production. */
  NEWS_ALLOW_PRIVATE: boolish.default(false),
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
