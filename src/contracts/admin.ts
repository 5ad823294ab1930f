import { z } from 'zod';
import { memberSummarySchema, subscriptionSourceSchema, subscriptionStatusSchema, tierSchema } from './member-schemas';
import { SUBSCRIPTION_STATUSES, TIERS } from './tiers';
import { textField } from './text-field';
import { TIER_TABLE, tierLabel } from './tier-table';
import { MEMBER_BUCKETS } from './tier-policy';
import { EMAIL_INPUT_MAX } from './email';

/**
 * Admin API payloads: members, stats, bulk import, sync, system status (docs/decisions/0006-platform-subscriptions-and-members-admin.md).
 * Shared by the server routes in src/server/modules/admin and the admin pages.
 */

// ---------------------------------------------------------------- admin user

/** One member as the admin pages see it. Dates are ISO strings; pledgeAmount is euro cents per month. */
export const adminUserSchema = memberSummarySchema.extend({
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** Euro cents per month (shown in euros). */
  pledgeAmount: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

// ---------------------------------------------------------------- GET /api/admin/users

/** Largest page GET /api/admin/users returns; the default page is this size too. */
export const ADMIN_USERS_MAX_LIMIT = 500;
/** Name of the response header carrying the number of members matching the filters (the body stays a JSON array, as the spec's client expects). */
export const TOTAL_COUNT_HEADER = 'x-total-count';
/** Name of the response header carrying the number of members in the database, unfiltered ('shown of total'). */
export const UNFILTERED_COUNT_HEADER = 'x-unfiltered-count';
/**
 * A search counts its matches up to this many (or to the end of the page asked for, if further); when
 * more match, x-total-count is the cap and this header is 'true' (the list shows "1,000+").
 */
export const TOTAL_CAPPED_HEADER = 'x-total-count-capped';
export const SEARCH_COUNT_CAP = 1000;

/** Query string of GET /api/admin/users; every field optional. Empty strings mean "no filter". */
export const adminUsersQuerySchema = z.object({
  /** Case-insensitive substring of email, username, first name or last name. */
  search: textField(200).trim().optional(),
  /** Stored tier and status: what the member's row says, whether or not it gives access now. */
  tier: z.union([tierSchema, z.literal('')]).optional(),
  status: z.union([subscriptionStatusSchema, z.literal('')]).optional(),
  /** The dashboard's figures: the member's bucket now, the tier they have now, the band their pledge buys now. */
  access: z.union([z.enum(MEMBER_BUCKETS), z.literal('')]).optional(),
  effectiveTier: z.union([tierSchema, z.literal('')]).optional(),
  pledgeBand: z.union([tierSchema, z.literal('')]).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_USERS_MAX_LIMIT).default(ADMIN_USERS_MAX_LIMIT),
  offset: z.coerce.number().int().min(0).default(0),
});

/**
 * GET /api/admin/users/export.csv: the list's filters, every matching member (no paging), and `bom`:
 * a UTF-8 byte-order mark first (the default), so Excel reads names with accents as UTF-8; `bom=false`
 * for tools that take the mark for part of the first column's name. The bulk import reads either.
 */
export const adminUsersExportQuerySchema = adminUsersQuerySchema
  .pick({
    search: true,
    tier: true,
    status: true,
    access: true,
    effectiveTier: true,
    pledgeBand: true,
  })
  .extend({ bom: z.enum(['true', 'false']).default('true') });
export type AdminUsersExportQuery = z.input<typeof adminUsersExportQuerySchema>;
/** The export's columns: the bulk import's, then what the import does not read back. */
export const MEMBERS_EXPORT_EXTRA_COLUMNS = ['username', 'isAdmin', 'createdAt', 'lastLoginAt'] as const;

/** Body of GET /api/admin/users: a JSON array, newest members first. Totals are in the headers above. */
export const adminUserListSchema = z.array(adminUserSchema);

// ---------------------------------------------------------------- POST /api/admin/users

export const REQUIRED_EMAIL_USERNAME = 'Email and username are required';
export const INVALID_EMAIL = 'Please enter a valid email address';

/** Euros as the forms send them: a number, a numeric string, or empty (= 0). Max 100,000 euro. */
const euroAmountSchema = z
  .union([z.number(), textField(20).trim(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return 0;
    const n = typeof v === 'number' ? v : Number(v.replace(',', '.'));
    if (!Number.isFinite(n) || n < 0 || n > 100_000) {
      ctx.addIssue({ code: 'custom', message: 'Pledge amount must be a number of euros between 0 and 100000' });
      return z.NEVER;
    }
    return n;
  });

/** Whole days from now; 0 or empty = no expiry. */
const expiryDaysSchema = z
  .union([z.number(), textField(10).trim(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return 0;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 36_500) {
      ctx.addIssue({ code: 'custom', message: 'Expiry days must be a whole number from 0 (no expiry) to 36500' });
      return z.NEVER;
    }
    return n;
  });

/**
 * POST /api/admin/users. email and username are checked by the server with the form's messages
 * (REQUIRED_EMAIL_USERNAME, INVALID_EMAIL; the one email rule of email.ts) so the schema accepts any
 * string up to their length for them.
 * pledgeAmount is euros (decimal); the reply's pledgeAmount is cents. expiryDays 0 = no expiry.
 */
export const createAdminUserSchema = z.object({
  email: textField(EMAIL_INPUT_MAX).optional().default(''),
  username: textField(100).optional().default(''),
  firstName: textField(100).trim().nullish(),
  lastName: textField(100).trim().nullish(),
  subscriptionTier: tierSchema.default('free'),
  subscriptionStatus: subscriptionStatusSchema.default('active'),
  subscriptionSource: subscriptionSourceSchema.default('admin'),
  expiryDays: expiryDaysSchema,
  pledgeAmount: euroAmountSchema,
  isAdmin: z.boolean().default(false),
});
export type CreateAdminUserInput = z.input<typeof createAdminUserSchema>;
/** Reply: the created AdminUser (201). Duplicate email → 409 'A user with this email already exists'. */
export const DUPLICATE_EMAIL = 'A user with this email already exists';

// ---------------------------------------------------------------- PUT /api/admin/users/{id}

/**
 * PUT /api/admin/users/{id}: the whole edited user. Fields the admin cannot change (id, createdAt,
 * lastLoginAt) may be sent back and are ignored. subscriptionExpiry: ISO date-time, or 'YYYY-MM-DD'
 * (access through that whole day in Europe/Dublin: stored as 23:59:59.999 Dublin time), or null/'' for no expiry.
 * Email/username rules and messages as for create; duplicate email → 409; an admin cannot remove
 * their own admin rights (400).
 * pledgeAmount here is CENTS (the edit form shows euros and converts), an integer.
 */
export const updateAdminUserSchema = z.object({
  id: textField(100).optional(),
  email: textField(EMAIL_INPUT_MAX),
  username: textField(100),
  firstName: textField(100).trim().nullish(),
  lastName: textField(100).trim().nullish(),
  subscriptionTier: tierSchema,
  subscriptionStatus: subscriptionStatusSchema,
  subscriptionExpiry: z.union([textField(40), z.null()]).optional(),
  subscriptionSource: subscriptionSourceSchema,
  isAdmin: z.boolean(),
  pledgeAmount: z.number().int().min(0).max(10_000_000),
  createdAt: textField(100).nullish(),
  lastLoginAt: textField(100).nullish(),
});
export type UpdateAdminUserInput = z.input<typeof updateAdminUserSchema>;
/** Reply: the updated AdminUser. Unknown id → 404 'User not found'. */

// ---------------------------------------------------------------- POST /api/admin/bulk-import

export const BULK_IMPORT_EMPTY = 'Please upload a CSV file or paste CSV data';
/** Bodies up to this size are accepted (10,000 rows fit easily). */
export const BULK_IMPORT_MAX_BYTES = 8 * 1024 * 1024;
export const BULK_IMPORT_MAX_ROWS = 50_000;

export const BULK_IMPORT_COLUMNS = [
  'email',
  'firstName',
  'lastName',
  'subscriptionTier',
  'subscriptionStatus',
  'subscriptionExpiry',
  'pledgeAmount',
  'source',
] as const;

/** Statuses and sources a CSV row may carry. */
/** The spec's three, and the two a members export also writes (so an export reads back unchanged). */
export const BULK_IMPORT_STATUSES = ['active', 'cancelled', 'expired', 'cancelled_with_access', 'inactive'] as const;
/** `admin`: a member the station manages itself (also what an empty source cell means); sync never touches those. */
export const BULK_IMPORT_SOURCES = ['admin', 'patreon', 'buymeacoffee'] as const;

/** A template with the spec's columns, for the dialog's download. */
export const BULK_IMPORT_TEMPLATE = [
  BULK_IMPORT_COLUMNS.join(','),
  `listener@example.com,Ada,Byrne,${tierLabel('vip')},active,2026-12-31,${(TIER_TABLE.vip.pledgeMinCents / 100).toFixed(2)},patreon`,
  `fan@example.com,Sam,Kelly,${tierLabel('dhr1')},cancelled,,${TIER_TABLE.dhr1.pledgeMinCents / 100},buymeacoffee`,
].join('\n');

/** A form field or query value that says yes: true, "true", "1", "on". */
export const flagSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'on');

/** The planId a preview answered (a hex digest). */
export const planIdField = textField(64).regex(/^[0-9a-f]{1,64}$/, 'planId is the id a preview answered');

export const bulkImportRequestSchema = z.object({
  csvContent: textField(BULK_IMPORT_MAX_BYTES).optional().default(''),
  /** Change nothing; answer the plan. */
  dryRun: flagSchema,
  /** Go ahead although the import ends the subscriptions of many members (with the preview's planId). */
  confirm: flagSchema,
  planId: planIdField.optional(),
});
export const bulkRunQuerySchema = z.object({ dryRun: flagSchema, confirm: flagSchema, planId: planIdField.optional() });

const memberNamesSchema = z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() });

export const bulkImportResultSchema = z.object({
  /** New members created. */
  imported: z.number().int(),
  /** Existing members (same email) whose fields changed. */
  updated: z.number().int(),
  /** Existing members whose row matched exactly. */
  skipped: z.number().int(),
  /** One message per bad row, naming the row, e.g. "Row 3 (record 2): invalid subscriptionTier 'gold' (use Free, DHR1, DHR2 or VIP)". */
  errors: z.array(z.string()),
  /** True when nothing was written (dryRun). */
  dryRun: z.boolean().optional(),
  /** What the import does (or would do) to members' access. */
  plan: z.lazy(() => bulkPlanSchema).optional(),
  /** The run in the sync log (its Revert button undoes the import). */
  runId: z.number().int().nullable().optional(),
  /** Existing members whose first or last name the file changes (counted in `updated` too). */
  renamed: z.number().int().optional(),
  /** Up to 50 of those name changes, so the preview shows them. */
  nameChanges: z
    .array(z.object({ email: z.string(), from: memberNamesSchema, to: memberNamesSchema }))
    .max(50)
    .optional(),
});
export type BulkImportResult = z.infer<typeof bulkImportResultSchema>;

// ---------------------------------------------------------------- bulk runs: plans, confirmation, revert, history

/** Sample members a plan lists, of each kind of change at most (losses first, highest tier first). */
export const BULK_PLAN_SAMPLES = 50;
const PLAN_KIND_NAMES = ['loseAccess', 'stopPaying', 'tierDown', 'gainAccess', 'tierUp', 'detailsChanged', 'unchanged'] as const;

export const accessSnapshotSchema = z.object({
  tier: tierSchema,
  status: subscriptionStatusSchema,
  expiry: z.string().nullable(),
  source: subscriptionSourceSchema,
});

export const bulkPlanSchema = z.object({
  /**
   * A digest of the exact changes (member, effective access before and after, grant writes): a run
   * that carries it applies only while the plan is still the one previewed (else 409 plan_changed).
   */
  planId: z.string(),
  counts: z.object({
    gainAccess: z.number().int(),
    /** Members whose access ends now. */
    loseAccess: z.number().int(),
    /** Members whose subscription ends (or whose access ends earlier) but who keep access until a date. */
    stopPaying: z.number().int(),
    tierUp: z.number().int(),
    tierDown: z.number().int(),
    /** Status, expiry, amount or source changed; access and tier the same, access not shorter. */
    detailsChanged: z.number().int(),
    unchanged: z.number().int(),
    created: z.number().int(),
  }),
  /** Members with access before the run (the guard compares losses with it). */
  payingMembers: z.number().int(),
  needsConfirmation: z.boolean(),
  /** Up to BULK_PLAN_SAMPLES of each kind; "showing 50 of 258" compares them with the counts. */
  samples: z
    .array(
      z.object({
        email: z.string(),
        kind: z.enum(PLAN_KIND_NAMES),
        created: z.boolean(),
        from: accessSnapshotSchema,
        to: accessSnapshotSchema,
        reason: z.string(),
      }),
    )
    .max(BULK_PLAN_SAMPLES * PLAN_KIND_NAMES.length),
});
export type BulkPlan = z.infer<typeof bulkPlanSchema>;
export type BulkPlanSample = BulkPlan['samples'][number];

/** Members a plan takes something from: access now, or paid time (they stop paying). */
export const planLosses = (plan: Pick<BulkPlan, 'counts'>) => plan.counts.loseAccess + plan.counts.stopPaying;

/** The 409 of a bulk run that needs confirmation; its envelope carries the plan. */
export const CONFIRMATION_REQUIRED = (n: number) => `This would end the subscriptions of ${n} members. Review the preview and confirm to go ahead.`;

/** How the plan's losses changed since the preview: members in the new plan that the previewed one did not take from. */
export const planDifferenceSchema = z.object({
  /** False when the previewed plan is not known here (another instance, a restart): every loss is listed. */
  known: z.boolean(),
  loseAccess: z.object({ count: z.number().int(), emails: z.array(z.string()).max(BULK_PLAN_SAMPLES) }),
  stopPaying: z.object({ count: z.number().int(), emails: z.array(z.string()).max(BULK_PLAN_SAMPLES) }),
  /** The difference in words (also the 409's message). */
  words: z.string(),
});
export type PlanDifference = z.infer<typeof planDifferenceSchema>;

const PLAN_DIFF_NAMES = 3;
const someEmails = (emails: readonly string[], count: number) =>
  emails.slice(0, PLAN_DIFF_NAMES).join(', ') + (count > PLAN_DIFF_NAMES ? ` and ${count - PLAN_DIFF_NAMES} more` : '');
const members = (n: number) => (n === 1 ? '1 more member' : `${n} more members`);

/** The 409 plan_changed message: the losses the previewed plan did not have, in words. */
export function planChangedMessage(d: Omit<PlanDifference, 'words'>): string {
  const parts: string[] = [];
  if (d.loseAccess.count) parts.push(`${members(d.loseAccess.count)} would lose access: ${someEmails(d.loseAccess.emails, d.loseAccess.count)}`);
  if (d.stopPaying.count) parts.push(`${members(d.stopPaying.count)} would stop paying: ${someEmails(d.stopPaying.emails, d.stopPaying.count)}`);
  const lead = d.known ? 'The plan changed since the preview' : 'The plan changed since the preview (it is no longer known here)';
  return `${lead}: ${parts.join('; ') || 'its losses are different'}. Nothing was applied; review the new preview and confirm again.`;
}

export const revertRunReplySchema = z.object({
  /** The run that did the revert (in the sync log). */
  runId: z.number().int().nullable(),
  reverted: z.number().int(),
  /** Members a later change touched: left as they are. */
  skipped: z.array(z.object({ userId: z.string(), email: z.string(), reason: z.string() })),
  dryRun: z.boolean(),
  plan: bulkPlanSchema,
  /** Members whose names the run changed and the revert put back. */
  renamed: z.number().int().optional(),
});
export type RevertRunReply = z.infer<typeof revertRunReplySchema>;
export const REVERT_MESSAGES = {
  runNotFound: 'Sync run not found',
  alreadyReverted: 'This run was already reverted',
  nothingToRevert: 'This run changed no member',
  stillApplying: 'This run is still being applied: revert it once it has finished',
} as const;

export const MEMBER_CHANGE_CAUSES = ['sync', 'webhook', 'import', 'admin', 'link', 'claim', 'oauth', 'revert', 'expiry', 'confirm', 'signup'] as const;
export const memberHistorySchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      at: z.string(),
      cause: z.enum(MEMBER_CHANGE_CAUSES),
      /** The admin's id, the webhook delivery, the run reverted... */
      causeRef: z.string().nullable(),
      runId: z.number().int().nullable(),
      from: accessSnapshotSchema,
      to: accessSnapshotSchema,
      reason: z.string().nullable(),
    }),
  ),
});
export type MemberHistory = z.infer<typeof memberHistorySchema>;
export const MEMBER_HISTORY_MAX = 200;

export const heldChangesSchema = z.object({
  /** Members with held changes. */
  members: z.number().int(),
  items: z.array(
    z.object({
      id: z.number().int(),
      runId: z.number().int().nullable(),
      userId: z.string(),
      email: z.string(),
      source: subscriptionSourceSchema,
      from: accessSnapshotSchema,
      to: accessSnapshotSchema,
      reason: z.string(),
      heldAt: z.string(),
    }),
  ),
});
export type HeldChanges = z.infer<typeof heldChangesSchema>;
export const HELD_LIST_MAX = 500;
export const heldDecisionSchema = z.object({
  /** These held changes; none = all of them. */
  ids: z.array(z.number().int().min(1)).max(10_000).optional(),
});
export const heldDecisionReplySchema = z.object({
  /** Held changes applied (confirm) or dropped (dismiss). */
  done: z.number().int(),
  /** Held changes no longer applicable (the member changed meanwhile): dropped. */
  stale: z.number().int(),
  runId: z.number().int().nullable(),
});

// ---------------------------------------------------------------- POST /api/admin/sync-subscriptions

export const syncPlatformOutcomeSchema = z.object({
  platform: z.enum(['patreon', 'buymeacoffee']),
  /** False when the platform is not configured (no token), so it was not asked. */
  attempted: z.boolean(),
  /** True only when every page came back 2xx in the documented shape and the pagination ran to its end. */
  ok: z.boolean(),
  /** Members/subscriptions the platform listed. */
  fetched: z.number().int(),
  /** Why the listing does not count: nothing of this platform's members is ended, downgraded or shortened. */
  error: z.string().nullable(),
  /** Listed supporters who have access (compared with the last successful run's). */
  active: z.number().int().optional(),
  /** Set when the listing dropped more than 20 % of its active supporters: its losses are held for review. */
  held: z.string().nullable().optional(),
});
export type SyncPlatformOutcome = z.infer<typeof syncPlatformOutcomeSchema>;

/**
 * Reply of POST /api/admin/sync-subscriptions (body: {} or empty): members whose tier, status, expiry
 * or amount changed (platform entitlements plus the expiry pass). When some configured platform failed
 * and another worked, the reply is still 200 with `errors` listed; when every configured platform
 * failed it is 502 with the error envelope, message e.g. "Patreon: 401 Unauthorized (check PATREON_ACCESS_TOKEN)".
 * A sync already running elsewhere → 409.
 */
export const syncResultSchema = z.object({
  updated: z.number().int(),
  /** Platform failures, e.g. "Patreon: 401 Unauthorized (check PATREON_ACCESS_TOKEN)". Empty when all went well. */
  errors: z.array(z.string()),
  platforms: z.array(syncPlatformOutcomeSchema),
  /** True when nothing was written (dryRun). */
  dryRun: z.boolean().optional(),
  plan: bulkPlanSchema.optional(),
  runId: z.number().int().nullable().optional(),
  /** Losses the run kept back for review (scheduled runs; a listing that dropped many supporters). */
  held: z.number().int().optional(),
  /** Of the members the run changed: access ended now / subscription ended with access kept to a date. */
  lostAccess: z.number().int().optional(),
  stoppedPaying: z.number().int().optional(),
});

/**
 * Body of POST /api/admin/sync-subscriptions: {} runs it; dryRun previews; a run that ends many
 * subscriptions needs confirm with the preview's planId (confirm alone is refused like no confirm).
 */
export const syncRequestSchema = z
  .object({ dryRun: z.boolean().optional(), confirm: z.boolean().optional(), planId: planIdField.optional() })
  .passthrough()
  .nullish();

/** The two losses, as the sync log's lines and the final notice name them. */
export const LOSS_WORDS = {
  loseAccess: 'lose access now',
  stopPaying: (until: string) => `stop paying, keep access until ${until}`,
} as const;

/** The sync dialog's and the final notice's words. */
export const SYNC_WORDS = {
  failed: (error: string) => `${error}. This listing does not count: none of its members changes in this run.`,
  noneAnswered: 'No platform answered completely: there is nothing to apply.',
  applyOnly: (labels: string) => `Apply for ${labels} only`,
  planChanged: 'Nothing was applied. The new preview is below: check it and apply again.',
  showing: (shown: number, of: number) => `showing ${shown} of ${of}`,
  lossSplit: (lost: number, stopped: number) => `${lost} lost access now · ${stopped} stopped paying, access kept to their date`,
  loseAccessNow: 'Lose access now',
  stopPaying: 'Stop paying, keep access until their date',
  notice: (r: { updated: number; held?: number | undefined; lostAccess?: number | undefined; stoppedPaying?: number | undefined }) =>
    [
      `Sync complete: ${r.updated} users updated`,
      ...(r.lostAccess ? [`${r.lostAccess} lost access now`] : []),
      ...(r.stoppedPaying ? [`${r.stoppedPaying} stopped paying and keep access until their date`] : []),
      ...(r.held ? [`${r.held} changes held for review`] : []),
    ].join(' · '),
} as const;

export const SYNC_RUNNING = 'A sync is already running; try again in a minute';
/** A listing that lost more than LISTING_DROP_HOLD (and more than 5) of its active supporters since the last successful run is held. */
export const LISTING_DROP_HOLD = 0.2;
/** "Buy Me a Coffee lists 10 of the 500 supporters it listed yesterday" (`when`: "earlier today", "yesterday", "on 3 January"). */
export const listingDropped = (label: string, listed: number, before: number, when: string) =>
  `${label} lists ${listed} of the ${before} supporters it listed ${when}: its cancellations are held for review`;

export const NO_PLATFORM_CONFIGURED = 'No payment platform is configured: set PATREON_ACCESS_TOKEN/PATREON_CAMPAIGN_ID or BMC_ACCESS_TOKEN';
export type SyncResult = z.infer<typeof syncResultSchema>;

// ---------------------------------------------------------------- GET /api/admin/stats

export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  /** Members with a paid tier whose subscription gives access now (active or cancelled_with_access, not expired). */
  activeSubscribers: z.number().int(),
  vipUsers: z.number().int(),
  dhr2Users: z.number().int(),
  dhr1Users: z.number().int(),
  freeUsers: z.number().int(),
  cancelledWithAccess: z.number().int(),
  expiredUsers: z.number().int(),
  totalTracks: z.number().int(),
  totalMixes: z.number().int(),
  todayDownloads: z.number().int(),
  /** Bytes used by media files under DATA_DIR/media. */
  storageUsed: z.number(),
  /** Counts per status now (a passed expiry counts as expired, a cancelled subscription paid to a future date as cancelled_with_access). */
  statusCounts: z.record(z.enum(SUBSCRIPTION_STATUSES), z.number().int()),
  /** Members with paid access now per pledge band, by tier-policy's PLEDGE_BANDS (the tier table's pledge minimums). */
  pledgeBands: z.record(z.enum(TIERS), z.number().int()),
  /** Active platform supporters that feed no account (the reconciliation page lists them). */
  unmatchedSupporters: z.number().int(),
  /** Members whose losses a scheduled sync held back for review. */
  supportersHeld: z.number().int(),
  /** Work waiting for an admin: held comments + held forum threads, open contact messages, DJ submissions not reviewed. */
  moderationPending: z.number().int(),
  contactUnhandled: z.number().int(),
  submissionsUnreviewed: z.number().int(),
  /**
   * Every member in exactly one bucket (tier-policy's memberBucket); they sum to totalUsers.
   * activeSubscribers = active + cancelledWithAccess, freeUsers = expired + free,
   * cancelledWithAccess and expiredUsers repeat their bucket.
   */
  buckets: z.object({ active: z.number().int(), cancelledWithAccess: z.number().int(), expired: z.number().int(), free: z.number().int() }),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

// ---------------------------------------------------------------- GET /api/admin/system-status

export const platformStatusSchema = z.object({
  platform: z.enum(['patreon', 'buymeacoffee']),
  label: z.string(),
  /** API token (and campaign id for Patreon) present. */
  configured: z.boolean(),
  /** Webhook secret present. */
  webhookConfigured: z.boolean(),
  lastSync: z
    .object({
      at: z.string(),
      ok: z.boolean(),
      /** Members seen on the platform in that run. */
      fetched: z.number().int(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type PlatformStatus = z.infer<typeof platformStatusSchema>;

export const systemStatusSchema = z.object({
  checkedAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    ok: z.boolean(),
    latencyMs: z.number().nullable(),
    error: z.string().nullable(),
  }),
  platforms: z.array(platformStatusSchema),
  lastSync: z
    .object({
      at: z.string(),
      trigger: z.enum(['manual', 'scheduled', 'webhook']),
      ok: z.boolean(),
      updated: z.number().int(),
      errors: z.array(z.string()),
    })
    .nullable(),
  channels: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      statusUrl: z.string(),
      reachable: z.boolean(),
      latencyMs: z.number().nullable(),
      /** Listeners across the channel's mounts, when the status page says. */
      listeners: z.number().int().nullable(),
      /** Each mount of the channel (premium, and the free one when it has one) with its listeners now. */
      mounts: z.array(
        z.object({
          mount: z.string(),
          bitrateLabel: z.string(),
          /** 'free' for a public mount. */
          requiredTier: z.string(),
          /** null when the status page does not list the mount (no source) or could not be read. */
          listeners: z.number().int().nullable(),
        }),
      ),
      error: z.string().nullable(),
    }),
  ),
  backgroundJobs: z.boolean(),
  syncIntervalMin: z.number(),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

// ---------------------------------------------------------------- GET /api/admin/download-stats

export const downloadStatsSchema = z.object({
  /** Downloads since midnight Europe/Dublin. */
  today: z.number().int(),
});

// ---------------------------------------------------------------- GET /api/admin/storage-status

export const storageStatusSchema = z.object({
  /** Where media files live: the local folder (DATA_DIR/media) or an S3-compatible bucket (S3_BUCKET). */
  mode: z.enum(['local', 's3']),
  /** The folder, or 'bucket at endpoint'. */
  location: z.string(),
  /** Absolute path of the local media folder; null with S3. */
  localPath: z.string().nullable(),
  localPathExists: z.boolean(),
  /** Whether the storage answers now (folder writable, bucket reachable), and why not. */
  reachable: z.boolean(),
  error: z.string().nullable(),
  /** Bytes and files (objects) stored, counted live. */
  bytesUsed: z.number(),
  fileCount: z.number().int(),
  mixes: z.object({
    total: z.number().int(),
    withS3Url: z.number().int(),
    withoutS3Url: z.number().int(),
  }),
  checkedAt: z.string(),
});
export type StorageStatus = z.infer<typeof storageStatusSchema>;

export { SUBSCRIPTION_STATUSES, TIERS };
