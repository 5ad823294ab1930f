import { z } from 'zod';
import { emailSchema, verifyCodeBodySchema } from './auth';
import { subscriptionStatusSchema, tierSchema } from './member-schemas';
import { textField, uuidField } from './text-field';

/**
 * Supporters who pay under another identity (docs/decisions/0019-supporter-links.md): Connect Patreon,
 * claim a Buy Me a Coffee payment by code, the admins' reconciliation page and the sync log.
 */

export const platformSchema = z.enum(['patreon', 'buymeacoffee']);
export type PlatformName = z.infer<typeof platformSchema>;

export const PLATFORM_NAMES: Record<PlatformName, string> = { patreon: 'Patreon', buymeacoffee: 'Buy Me a Coffee' };

/** The scopes Connect Patreon asks for: who the member is, their email, and their memberships. */
export const PATREON_SCOPES = 'identity identity[email] identity.memberships';

/** The web page Patreon sends the member back to (`redirect_uri` is PUBLIC_URL + this). */
export const PATREON_RETURN_PAGE = '/auth/patreon';

export const SUPPORTER_MESSAGES = {
  patreonNotConfigured: 'Connect Patreon is not available on this station.',
  patreonStateInvalid: 'That Patreon connection was not started from this session or has expired. Please press Connect Patreon again.',
  patreonDenied: 'Patreon did not connect: the request was cancelled.',
  patreonFailed: 'Patreon did not answer as expected. Please try again in a minute.',
  patreonConnected: 'Patreon connected.',
  patreonDisconnected: 'Patreon disconnected.',
  patreonNotLinked: 'No Patreon account is connected.',
  claimOwnEmail: 'That is already your account email: payments under it apply on their own.',
  claimOtherAccount: 'That email belongs to another Deep House Radio account. Sign in with it instead.',
  claimAlreadyLinked: 'That payer email is already linked to your account.',
  claimCodeSent: 'We sent a 6-digit code to that email. Enter it below to link the payment.',
  claimLinked: 'Payment email linked.',
  /** The claim or connection linked an identity of a member banned from commenting: this account is banned too. */
  linkedBanned: (reason: string) =>
    `This payment identity belongs to a member banned from comments and the forum, so this account is banned from them too. Reason: ${reason}`,
  claimRemoved: 'Payment email removed.',
  claimNotLinked: 'That payer email is not linked to your account.',
  supporterNotFound: 'That supporter is no longer listed. Refresh the page.',
  supporterLinked: 'Supporter linked to the member.',
  supporterInvited: 'Sign-in link sent to the supporter.',
  memberNotFound: 'User not found',
  runNotFound: 'Sync run not found',
} as const;

// ---------------------------------------------------------------- the member's own links

export const supporterLinksSchema = z.object({
  patreon: z.object({
    /** PATREON_CLIENT_ID and PATREON_CLIENT_SECRET are set: the Connect Patreon button shows. */
    available: z.boolean(),
    /** When the member connected Patreon, or null. */
    connectedAt: z.string().nullable(),
  }),
  /** Buy Me a Coffee payer emails the member proved by code (or an admin linked). */
  payerEmails: z.array(z.object({ email: z.string(), linkedAt: z.string() })),
});
export type SupporterLinks = z.infer<typeof supporterLinksSchema>;

export const patreonAuthorizeReplySchema = z.object({ url: z.string() });

/** What Patreon appended to the return page, posted back by the page. */
export const patreonCallbackBodySchema = z.strictObject({
  code: textField(512).trim().min(1),
  state: textField(512).trim().min(1),
});
export type PatreonCallbackBody = z.infer<typeof patreonCallbackBodySchema>;

export const supporterActionReplySchema = z.object({
  message: z.string(),
  /** The member's tier and status after the change (they get it at once). */
  subscriptionTier: tierSchema,
  subscriptionStatus: subscriptionStatusSchema,
});
export type SupporterActionReply = z.infer<typeof supporterActionReplySchema>;

export const claimRequestBodySchema = z.strictObject({ email: emailSchema });
export type ClaimRequestBody = z.infer<typeof claimRequestBodySchema>;
export const claimConfirmBodySchema = verifyCodeBodySchema;
export type ClaimConfirmBody = z.infer<typeof claimConfirmBodySchema>;

// ---------------------------------------------------------------- admin: reconciliation

export const unmatchedSupporterSchema = z.object({
  platform: platformSchema,
  email: z.string(),
  name: z.string().nullable(),
  /** Euro cents a month. */
  amountCents: z.number().int(),
  tier: tierSchema,
  /** When the platform says the support began (else when DHR first stored it), ISO. */
  since: z.string(),
});
export type UnmatchedSupporter = z.infer<typeof unmatchedSupporterSchema>;

export const unmatchedSupportersSchema = z.object({
  total: z.number().int(),
  supporters: z.array(unmatchedSupporterSchema),
  /** False when neither platform is configured: DHR then cannot know of payers without an account. */
  platformsConfigured: z.boolean(),
});

/** Shown instead of "every paying supporter matches an account" when no platform is configured. */
export const NO_PLATFORM_UNMATCHED =
  'No payment platform is configured, so DHR cannot know of payers without an account. Set PATREON_ACCESS_TOKEN/PATREON_CAMPAIGN_ID or BMC_ACCESS_TOKEN.';
export type UnmatchedSupporters = z.infer<typeof unmatchedSupportersSchema>;
/** Rows the reconciliation list shows at most (the total says how many there are). */
export const UNMATCHED_LIST_MAX = 500;

export const supporterKeySchema = z.strictObject({ platform: platformSchema, email: emailSchema });
export const linkSupporterBodySchema = supporterKeySchema.extend({ userId: uuidField() });
export type LinkSupporterBody = z.infer<typeof linkSupporterBodySchema>;
export type SupporterKey = z.infer<typeof supporterKeySchema>;

// ---------------------------------------------------------------- admin: a member's platform records

export const memberPlatformRecordSchema = z.object({
  platform: platformSchema,
  email: z.string(),
  name: z.string().nullable(),
  platformStatus: z.string().nullable(),
  amountCents: z.number().int(),
  /** What the record gives now, by the mapping. */
  tier: tierSchema,
  status: subscriptionStatusSchema,
  expiry: z.string().nullable(),
  /** How it reaches the member: their own email, Connect Patreon, an emailed code, an admin's link. */
  matchedBy: z.enum(['email', 'oauth', 'claim', 'admin']),
  lastEvent: z.string(),
  updatedAt: z.string(),
});
export type MemberPlatformRecord = z.infer<typeof memberPlatformRecordSchema>;
export const memberPlatformRecordsSchema = z.array(memberPlatformRecordSchema);

// ---------------------------------------------------------------- admin: sync log

export const syncLogOutcomeSchema = z.object({
  platform: platformSchema,
  attempted: z.boolean(),
  ok: z.boolean(),
  fetched: z.number().int(),
  error: z.string().nullable(),
  matched: z.number().int().nullable(),
  unmatched: z.number().int().nullable(),
  changed: z.number().int().nullable(),
});

export const syncRunSummarySchema = z.object({
  id: z.number().int(),
  trigger: z.enum(['manual', 'scheduled', 'webhook', 'import', 'revert', 'confirm']),
  startedAt: z.string(),
  finishedAt: z.string(),
  ok: z.boolean(),
  updated: z.number().int(),
  errors: z.array(z.string()),
  platforms: z.array(syncLogOutcomeSchema),
  /** Webhooks: the event and what was done with it. */
  note: z.string().nullable(),
  /** When the run was undone, and by which run; runs that changed no member cannot be reverted. */
  revertedAt: z.string().nullable(),
  revertedByRun: z.number().int().nullable(),
  revertible: z.boolean(),
  /**
   * 'applying' while a bulk run writes its chunks, 'done', or 'interrupted' when it stopped part-way:
   * what it applied stays and can be reverted; running it again applies the rest.
   */
  state: z.enum(['applying', 'done', 'interrupted']),
  /** The admin who ran it (a manual sync, an import, a revert, a confirmation), and who reverted it; null when nobody did or the account is gone. */
  startedBy: z.string().nullable(),
  revertedBy: z.string().nullable(),
});
export type SyncRunSummary = z.infer<typeof syncRunSummarySchema>;
export const syncRunListSchema = z.array(syncRunSummarySchema);
export const SYNC_RUN_LIST_MAX = 100;

export const syncLogEntrySchema = z.object({
  kind: z.enum(['changed', 'unmatched', 'webhook']),
  platform: z.enum(['admin', 'patreon', 'buymeacoffee']),
  email: z.string(),
  userId: z.string().nullable(),
  memberEmail: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  note: z.string().nullable(),
});

export const syncRunDetailSchema = syncRunSummarySchema.extend({ entries: z.array(syncLogEntrySchema) });
export type SyncRunDetail = z.infer<typeof syncRunDetailSchema>;

export const syncRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(SYNC_RUN_LIST_MAX).default(50),
  /** Include webhook deliveries (the default), or only syncs. */
  webhooks: z.enum(['true', 'false']).default('true'),
});

/** What DHR answers a platform's webhook delivery. */
export const webhookReplySchema = z.object({
  received: z.literal(true),
  /** False for a replayed delivery, an event DHR does not act on, or a member without an email. */
  applied: z.boolean(),
  duplicate: z.boolean(),
  /** True when the delivery describes an older state than the one stored (a late or replayed delivery). */
  stale: z.boolean(),
  /** Members whose subscription changed. */
  updated: z.number().int(),
});
export type WebhookReply = z.infer<typeof webhookReplySchema>;
