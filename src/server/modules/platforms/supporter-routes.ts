import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LINK_PAGES, messageSchema, TOKEN_FRAGMENT_KEY } from '../../../contracts/auth';
import {
  claimConfirmBodySchema,
  claimRequestBodySchema,
  linkSupporterBodySchema,
  memberPlatformRecordsSchema,
  patreonAuthorizeReplySchema,
  patreonCallbackBodySchema,
  SUPPORTER_MESSAGES,
  supporterActionReplySchema,
  supporterKeySchema,
  supporterLinksSchema,
  syncRunDetailSchema,
  syncRunListSchema,
  syncRunsQuerySchema,
  unmatchedSupportersSchema,
} from '../../../contracts/supporters';
import type { UserRow } from '../../db/schema';
import { notFound, unauthorized } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { issueLinkToken } from '../auth/auth-tokens';
import { payerClaimCodeMail, signInLinkMail } from '../auth/mails';
import { findSyncRun, recentSyncRuns } from './platforms-repository';
import {
  confirmPayerClaim,
  disconnectPatreon,
  finishPatreonConnect,
  linkSupporterToMember,
  listUnmatchedSupporters,
  memberPlatformRecords,
  peopleOfRuns,
  removePayerClaim,
  requestPayerClaim,
  startPatreonConnect,
  supporterLinksOf,
  supporterToInvite,
} from './supporters-service';
import { toSyncRunDetail, toSyncRunSummary } from './sync-log-views';
import { platformConfigured } from './sync';
import { uuidField } from '../../../contracts/text-field';

const idParams = z.object({ id: uuidField() });

/**
 * Supporters who pay under another identity (docs/decisions/0019-supporter-links.md): the member's
 * Connect Patreon and Buy Me a Coffee claim, the admins' reconciliation, a member's platform records
 * and the sync log.
 */
export const supporterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const member = { access: access.member };
  /** The signed-in member and their session (the policy guarantees both). */
  const signedIn = (req: { user: UserRow | null; sessionIdHash: string | null }) => {
    if (!req.user || !req.sessionIdHash) throw unauthorized();
    return { user: req.user, sessionIdHash: req.sessionIdHash };
  };

  app.get(
    '/api/supporters/links',
    { config: member, schema: { summary: 'My linked Patreon and Buy Me a Coffee memberships', response: { 200: supporterLinksSchema } } },
    async (req) => supporterLinksOf(db, app.config, signedIn(req).user),
  );

  app.post(
    '/api/supporters/patreon/authorize',
    { config: member, schema: { summary: 'Start connecting my Patreon account', response: { 200: patreonAuthorizeReplySchema } } },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.patreonConnect);
      const { user, sessionIdHash } = signedIn(req);
      return { url: await startPatreonConnect(db, app.config, user, sessionIdHash) };
    },
  );

  // The return page posts what Patreon appended (code, state): the code never sits in a logged URL.
  app.post(
    '/api/supporters/patreon/callback',
    {
      config: member,
      schema: { summary: 'Finish connecting my Patreon account', body: patreonCallbackBodySchema, response: { 200: supporterActionReplySchema } },
    },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.patreonConnect);
      const { user, sessionIdHash } = signedIn(req);
      const reply = await finishPatreonConnect(db, app.config, user, sessionIdHash, req.body);
      req.log.info({ userId: user.id, tier: reply.subscriptionTier }, 'Patreon connected');
      return reply;
    },
  );

  app.delete(
    '/api/supporters/patreon',
    { config: member, schema: { summary: 'Disconnect my Patreon account', response: { 200: supporterActionReplySchema } } },
    async (req) => disconnectPatreon(db, signedIn(req).user),
  );

  app.post(
    '/api/supporters/claims',
    {
      config: member,
      schema: {
        summary: 'Claim a supporter membership paid under another email (mails a code)',
        body: claimRequestBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (req) => {
      const { email } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.payerClaim, email);
      const { user } = signedIn(req);
      const code = await requestPayerClaim(db, user, email);
      app.mailer.sendLater(async () => payerClaimCodeMail(email, code));
      return { message: SUPPORTER_MESSAGES.claimCodeSent };
    },
  );

  app.post(
    '/api/supporters/claims/confirm',
    {
      config: member,
      schema: { summary: 'Confirm a supporter membership claim', body: claimConfirmBodySchema, response: { 200: supporterActionReplySchema } },
    },
    async (req) => {
      await enforceRateLimit(db, req, RATE_RULES.codeCheck, req.body.email);
      return confirmPayerClaim(db, signedIn(req).user, req.body);
    },
  );

  app.post(
    '/api/supporters/claims/remove',
    { config: member, schema: { summary: 'Remove a supporter membership claim', body: claimRequestBodySchema, response: { 200: supporterActionReplySchema } } },
    async (req) => removePayerClaim(db, signedIn(req).user, req.body.email),
  );

  adminSupporterRoutes(app);
};

/** The admins' side: unmatched supporters, linking and inviting them, a member's platform records, the sync log. */
function adminSupporterRoutes(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  const { db } = app.database;
  const admin = { access: access.admin };

  app.get(
    '/api/admin/supporters/unmatched',
    { config: admin, schema: { summary: 'Supporters no member matches', response: { 200: unmatchedSupportersSchema } } },
    async () => listUnmatchedSupporters(db, platformConfigured(app.config, 'patreon') || platformConfigured(app.config, 'buymeacoffee')),
  );

  app.post(
    '/api/admin/supporters/link',
    { config: admin, schema: { summary: 'Link a supporter to a member', body: linkSupporterBodySchema, response: { 200: messageSchema } } },
    async (req) => {
      const reply = await linkSupporterToMember(db, req.body, req.user?.id ?? null);
      req.log.info({ platform: req.body.platform, userId: req.body.userId, by: req.user?.id }, 'supporter linked by an admin');
      return reply;
    },
  );

  // Invite: the payer gets a sign-in link; the first sign-in creates the account with the tier (ADR 0006).
  app.post(
    '/api/admin/supporters/invite',
    { config: admin, schema: { summary: 'Invite a supporter to sign in', body: supporterKeySchema, response: { 200: messageSchema } } },
    async (req) => {
      const { email, userId } = await supporterToInvite(db, req.body.platform, req.body.email);
      app.mailer.sendLater(async () => {
        const token = await issueLinkToken(db, 'login_link', email, userId);
        return signInLinkMail(email, `${app.config.PUBLIC_URL}${LINK_PAGES.signIn}#${TOKEN_FRAGMENT_KEY}=${encodeURIComponent(token)}`);
      });
      return { message: SUPPORTER_MESSAGES.supporterInvited };
    },
  );

  app.get(
    '/api/admin/users/:id/platform-records',
    { config: admin, schema: { summary: "A member's Patreon and Buy Me a Coffee records", params: idParams, response: { 200: memberPlatformRecordsSchema } } },
    async (req) => memberPlatformRecords(db, req.params.id),
  );

  app.get(
    '/api/admin/sync-runs',
    { config: admin, schema: { summary: 'The recent platform sync runs', querystring: syncRunsQuerySchema, response: { 200: syncRunListSchema } } },
    async (req) => {
      const runs = await recentSyncRuns(db, req.query.limit, req.query.webhooks === 'true');
      const people = await peopleOfRuns(db, runs);
      return runs.map((r) => toSyncRunSummary(r, people.get(r.id) ?? { startedBy: null, revertedBy: null }));
    },
  );

  app.get(
    '/api/admin/sync-runs/:id',
    {
      config: admin,
      schema: {
        summary: 'One sync run and its changes',
        params: z.object({
          id: z.coerce
            .number()
            .int()
            .min(1)
            .max(2 ** 31 - 1),
        }),
        response: { 200: syncRunDetailSchema },
      },
    },
    async (req) => {
      const run = await findSyncRun(db, req.params.id);
      if (!run) throw notFound(SUPPORTER_MESSAGES.runNotFound, 'run_not_found');
      const people = await peopleOfRuns(db, [run]);
      return toSyncRunDetail(run, people.get(run.id) ?? { startedBy: null, revertedBy: null });
    },
  );
}
