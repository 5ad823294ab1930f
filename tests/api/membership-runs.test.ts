import { eq, like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { REVERT_MESSAGES } from '../../src/contracts/admin';
import { DAY_MS } from '../../src/contracts/time';
import { users } from '../../src/server/db/schema';
import { createMember, createTestApp, memberWithRole } from '../support/app';
import { bmcSubscription, startBmcStub } from '../support/platform-stubs';

const BMC_TOKEN = 'bmc-token';
const HEADER = 'email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source';

/** YYYY-MM-DD, `days` from today. */
const dayFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

describe('membership you can trust: bulk runs that never silently cut off paying members', async () => {
  const bmc = await startBmcStub({ token: BMC_TOKEN, pageSize: 100 });
  afterAll(() => bmc.close());
  const app = await createTestApp({ BMC_API_URL: bmc.url, BMC_ACCESS_TOKEN: BMC_TOKEN });
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const as = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const tagged = (t: string) =>
    db
      .select()
      .from(users)
      .where(like(users.email, `%-${t}@example.test`));
  // The three supporters the platform keeps listing are left out: every run may update them.
  const snapshot = async (t: string) =>
    (await tagged(t))
      .filter((u) => !/^bmc[012]-/.test(u.email))
      .map((u) => `${u.email} ${u.subscriptionTier} ${u.subscriptionStatus} ${u.subscriptionExpiry?.toISOString() ?? '-'} ${u.subscriptionSource}`)
      .sort();
  /** A sync previewed, then confirmed with the preview's planId (as the dialog does). */
  const confirmedSync = async () => {
    const preview = await as('POST', '/api/admin/sync-subscriptions', { dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    return as('POST', '/api/admin/sync-subscriptions', { confirm: true, planId: preview.json().plan.planId });
  };

  const paidThrough = dayFromNow(126);
  const t = Date.now().toString(36);
  const lines = [HEADER];
  for (let i = 0; i < 500; i++) lines.push(`bmc${i}-${t}@example.test,Fan,${i},VIP,active,${paidThrough},10,buymeacoffee`);
  // Members the station manages itself: the source left empty means admin.
  lines.push(`staff-${t}@example.test,Staff,One,DHR2,active,,,`);
  lines.push(`crew-${t}@example.test,Crew,Two,DHR1,active,,,admin`);

  it('previews an import of 500 paying supporters, then imports them with access at once', async () => {
    const preview = await as('POST', '/api/admin/bulk-import?dryRun=true', { csvContent: lines.join('\n') });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ dryRun: true, imported: 502, plan: { counts: { created: 502, gainAccess: 502, loseAccess: 0 } } });
    expect(await tagged(t)).toHaveLength(0);

    const res = await as('POST', '/api/admin/bulk-import', { csvContent: lines.join('\n') });
    expect(res.json()).toMatchObject({ imported: 502, errors: [] });
    expect(res.json().runId).toBeGreaterThan(0);
    const [staff] = await db
      .select()
      .from(users)
      .where(eq(users.email, `staff-${t}@example.test`));
    expect(staff).toMatchObject({ subscriptionTier: 'dhr2', subscriptionStatus: 'active', subscriptionSource: 'admin' });
  });

  it('previews a sync that lists 3 of them, refuses it without confirmation, and changes nothing', async () => {
    bmc.state.items = [0, 1, 2].map((i) => bmcSubscription({ email: `bmc${i}-${t}@example.test`, price: '10.000' }));
    const before = await snapshot(t);

    const preview = await as('POST', '/api/admin/sync-subscriptions', { dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const plan = preview.json().plan;
    expect(preview.json().dryRun).toBe(true);
    // They stop paying but keep access to the date they paid for: none loses access now.
    expect(plan.counts).toMatchObject({ loseAccess: 0, stopPaying: 497 });
    expect(plan.planId).toMatch(/^[0-9a-f]{32}$/);
    expect(plan.needsConfirmation).toBe(true);
    // At most 50 of each kind, the losses first.
    expect(plan.samples.filter((x: { kind: string }) => x.kind === 'stopPaying')).toHaveLength(50);
    expect(plan.samples[0]).toMatchObject({
      kind: 'stopPaying',
      from: { tier: 'vip', status: 'active' },
      to: { tier: 'vip', status: 'cancelled_with_access' },
    });
    expect(await snapshot(t)).toEqual(before);

    const refused = await as('POST', '/api/admin/sync-subscriptions', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('confirmation_required');
    expect(refused.json().message).toBe('This would end the subscriptions of 497 members. Review the preview and confirm to go ahead.');
    expect(refused.json().plan.counts.stopPaying).toBe(497);
    // Confirming without naming the plan previewed is no confirmation; a planId that is not the plan is refused too.
    const blind = await as('POST', '/api/admin/sync-subscriptions', { confirm: true });
    expect(blind.statusCode).toBe(409);
    expect(blind.json().error.code).toBe('confirmation_required');
    const stale = await as('POST', '/api/admin/sync-subscriptions', { confirm: true, planId: 'abc123' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('plan_changed');
    expect(stale.json().message).toMatch(/^The plan changed since the preview .*497 more members would stop paying: bmc\d+-/);
    expect((await as('POST', '/api/admin/sync-subscriptions', { confirm: true, planId: 'not hex!' })).statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('holds the losses of a scheduled sync for review instead of applying them', async () => {
    const before = await snapshot(t);
    const { createSyncRunner } = await import('../../src/server/modules/platforms/sync');
    const runner = createSyncRunner({ database: app.database, config: app.config }, { retries: 0 });
    const result = await runner.sync('scheduled');
    expect(result.held).toBe(497);
    expect(await snapshot(t)).toEqual(before);
    const stats = await as('GET', '/api/admin/stats');
    expect(stats.json().supportersHeld).toBe(497);
    const held = await as('GET', '/api/admin/held-changes');
    expect(held.json().members).toBe(497);
    expect(held.json().items[0]).toMatchObject({ source: 'buymeacoffee', from: { status: 'active' }, to: { status: 'cancelled_with_access' } });
    // Dismissed: the members keep what they have.
    expect((await as('POST', '/api/admin/held-changes/dismiss', {})).json()).toMatchObject({ done: 497 });
    expect((await as('GET', '/api/admin/stats')).json().supportersHeld).toBe(0);
    expect(await snapshot(t)).toEqual(before);
  });

  let syncRunId = 0;
  it('with confirmation, ends the subscriptions but keeps access to the paid-through date; admin members are untouched', async () => {
    const res = await confirmedSync();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ lostAccess: 0, stoppedPaying: 497 });
    syncRunId = res.json().runId;
    const rows = await tagged(t);
    const lapsed = rows.filter((u) => u.email.startsWith('bmc') && !/^bmc[012]-/.test(u.email));
    expect(lapsed).toHaveLength(497);
    for (const u of lapsed) {
      expect(u.subscriptionStatus).toBe('cancelled_with_access');
      expect(u.subscriptionTier).toBe('vip');
      expect(u.subscriptionExpiry?.toISOString().slice(0, 10)).toBe(paidThrough);
    }
    const listed = rows.filter((u) => /^bmc[012]-/.test(u.email));
    for (const u of listed) expect(u).toMatchObject({ subscriptionStatus: 'active', subscriptionTier: 'vip' });
    expect(rows.find((u) => u.email.startsWith('staff-'))).toMatchObject({
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'admin',
    });
    expect(rows.find((u) => u.email.startsWith('crew-'))).toMatchObject({
      subscriptionTier: 'dhr1',
      subscriptionStatus: 'active',
      subscriptionSource: 'admin',
    });

    // A lapsed member keeps VIP access now.
    const lapsedMember = lapsed[0];
    if (!lapsedMember) throw new Error('no lapsed member');
    const session = await createMember(app, { email: `session-${t}@elsewhere.test` });
    expect(session.user.id).not.toBe(lapsedMember.id);
    const history = await as('GET', `/api/admin/users/${lapsedMember.id}/history`);
    expect(history.statusCode).toBe(200);
    const causes = history.json().items.map((i: { cause: string }) => i.cause);
    expect(causes).toEqual(['sync', 'import']);
    expect(history.json().items[0]).toMatchObject({ runId: syncRunId, from: { status: 'active' }, to: { status: 'cancelled_with_access' } });
  });

  it('reverts the sync: every member it changed is back, except one a later change touched', async () => {
    const rows = await tagged(t);
    const touchedLater = rows.find((u) => u.email.startsWith('bmc10-'));
    if (!touchedLater) throw new Error('missing member');
    // An admin edits one of them after the run.
    const assign = await as('POST', '/api/admin/assign-tier', { email: touchedLater.email, tier: 'DHR1', expiryDays: 0 });
    expect(assign.statusCode, assign.body).toBe(200);

    const preview = await as('POST', `/api/admin/sync-runs/${syncRunId}/revert`, { dryRun: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ dryRun: true, reverted: 0 });
    expect(preview.json().skipped.map((s: { email: string }) => s.email)).toEqual([touchedLater.email]);
    expect(preview.json().plan.counts.gainAccess + preview.json().plan.counts.detailsChanged).toBe(496);

    const res = await as('POST', `/api/admin/sync-runs/${syncRunId}/revert`, { confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reverted).toBe(496);
    const after = await tagged(t);
    for (const u of after.filter((u) => u.email.startsWith('bmc') && !/^bmc[012]-/.test(u.email) && u.id !== touchedLater.id)) {
      expect(u).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active' });
      expect(u.subscriptionExpiry?.toISOString().slice(0, 10)).toBe(paidThrough);
    }
    // The later admin grant (DHR1) is kept; the BMC grant ended by the sync still gives VIP to the paid-through date.
    expect(after.find((u) => u.id === touchedLater.id)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'cancelled_with_access' });

    const runs = await as('GET', '/api/admin/sync-runs?webhooks=false');
    const reverted = runs.json().find((r: { id: number }) => r.id === syncRunId);
    expect(reverted).toMatchObject({ revertible: false, revertedByRun: res.json().runId, revertedBy: admin.user.username });
    // The log says who ran each run and who reverted it.
    expect(runs.json().find((r: { id: number }) => r.id === res.json().runId)).toMatchObject({
      trigger: 'revert',
      startedBy: admin.user.username,
      revertedBy: null,
    });
    expect((await as('GET', `/api/admin/sync-runs/${syncRunId}`)).json()).toMatchObject({ revertedBy: admin.user.username });
    // The revert's own log names every member it put back.
    const detail = await as('GET', `/api/admin/sync-runs/${res.json().runId}`);
    expect(detail.json().entries).toHaveLength(496);
    expect(detail.json().entries[0]).toMatchObject({ kind: 'changed', note: `revert of run ${syncRunId}`, to: 'vip active (buymeacoffee)' });

    const again = await as('POST', `/api/admin/sync-runs/${syncRunId}/revert`, { confirm: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REVERT_MESSAGES.alreadyReverted);
  });

  it('refuses bad revert and history requests with a clear 4xx and changes nothing', async () => {
    const before = await snapshot(t);
    const missing = await as('POST', '/api/admin/sync-runs/999999/revert', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(REVERT_MESSAGES.runNotFound);
    for (const bad of ['abc', '-1', '0', '1e99']) {
      expect((await as('POST', `/api/admin/sync-runs/${bad}/revert`, {})).statusCode, bad).toBe(400);
    }
    expect((await as('GET', '/api/admin/users/not-a-uuid/history')).statusCode).toBe(404);
    expect((await as('GET', '/api/admin/users/00000000-0000-4000-8000-000000000000/history')).statusCode).toBe(404);
    const badImport = await as('POST', '/api/admin/bulk-import', { csvContent: `${HEADER}\nx-${t}@example.test,,,VIP,active,,10,paypal` });
    expect(badImport.json().errors).toEqual(["Row 2 (record 1): invalid source 'paypal' (use admin, patreon or buymeacoffee)"]);
    const negative = await as('POST', '/api/admin/assign-tier', { email: `neg-${t}@example.test`, tier: 'VIP', expiryDays: -3 });
    expect(negative.statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('lets a member with an admin DHR1 grant have the VIP a linked payment gives, at once', async () => {
    const member = await createMember(app, { email: `linked-${t}@example.test` });
    expect((await as('POST', '/api/admin/assign-tier', { email: member.user.email, tier: 'DHR1', expiryDays: 0 })).statusCode).toBe(200);
    const payer = `payer-${t}@elsewhere.test`;
    bmc.state.items = [...bmc.state.items, bmcSubscription({ email: payer, price: '10.000' })];
    const sync = await confirmedSync();
    expect(sync.statusCode, sync.body).toBe(200);
    const link = await as('POST', '/api/admin/supporters/link', { platform: 'buymeacoffee', email: payer, userId: member.user.id });
    expect(link.statusCode, link.body).toBe(200);
    const perms = await app.inject({ url: '/api/user/permissions', headers: { cookie: member.cookie } });
    expect(perms.json(), perms.body).toMatchObject({ canAccessVIP: true, subscriptionTier: 'vip' });
    const history = await as('GET', `/api/admin/users/${member.user.id}/history`);
    expect(history.json().items.map((i: { cause: string }) => i.cause)).toEqual(['link', 'admin']);
  });

  it('refuses an import whose plan takes more than the one previewed (409 plan_changed) and changes nothing', async () => {
    const expire = (from: number, to: number) =>
      [HEADER, ...Array.from({ length: to - from }, (_, k) => `bmc${from + k}-${t}@example.test,Fan,${from + k},VIP,expired,,10,buymeacoffee`)].join('\n');
    const preview = await as('POST', '/api/admin/bulk-import?dryRun=true', { csvContent: expire(20, 26) });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().plan.counts.loseAccess).toBe(6);
    const before = await snapshot(t);
    // The sheet grew by two rows after the preview.
    const refused = await as('POST', '/api/admin/bulk-import', { csvContent: expire(20, 28), planId: preview.json().plan.planId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('plan_changed');
    expect(refused.json().message).toBe(
      `The plan changed since the preview: 2 more members would lose access: bmc26-${t}@example.test, bmc27-${t}@example.test. Nothing was applied; review the new preview and confirm again.`,
    );
    expect(await snapshot(t)).toEqual(before);
    // The sheet previewed goes ahead with its planId.
    const ok = await as('POST', '/api/admin/bulk-import', { csvContent: expire(20, 26), planId: preview.json().plan.planId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ updated: 6, errors: [] });
  });
});
