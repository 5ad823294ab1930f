import type { Db } from '../../db/client';
import type { Platform, SyncLogEntry } from '../../db/schema';
import type { PlatformRecordInput } from './clients';
import { finishSyncRun, recordDelivery, startSyncRun, storedLastCharge, upsertPlatformRecords } from './platforms-repository';
import { reconcileUsers, type ReconcileResult } from './reconcile-service';
import { syncLog } from './sync';
import type { WebhookReply } from '../../../contracts/supporters';

export interface WebhookDelivery {
  platform: Platform;
  /** The platform's event id, else a hash of the signed body: a replay has the same key. */
  deliveryKey: string;
  event: string;
  /** The payer record the delivery carries; null for events DHR does not act on. */
  record: PlatformRecordInput | null;
}

/**
 * Records a signed delivery and applies it in one transaction; a delivery seen before, or one that
 * describes an older state than the stored record (its last charge predates the stored last charge:
 * Patreon documents carry no event time, and the charge date only moves forward), changes nothing.
 * Every delivery is a run of the sync log saying what it did; the member changes it makes name it,
 * so a webhook's changes can be reverted.
 */
export async function applyWebhookDelivery(db: Db, d: WebhookDelivery): Promise<WebhookReply> {
  const { platform, deliveryKey, event, record } = d;
  const ignored = { received: true, applied: false, duplicate: false, stale: false, updated: 0 } as const;
  const startedAt = new Date();
  return db.transaction(async (tx) => {
    const runId = await startSyncRun(tx, 'webhook', startedAt);
    const finish = async (reply: WebhookReply, note: string, reconciled?: ReconcileResult) => {
      const log = reconciled ? syncLog(reconciled, startedAt, [platform]) : null;
      const entry: SyncLogEntry = { kind: 'webhook', platform, email: record?.email ?? '', note: `${event}: ${note}` };
      await finishSyncRun(tx, runId, {
        ok: true,
        updated: reply.updated,
        platforms: [{ platform, attempted: true, ok: true, fetched: record ? 1 : 0, error: null, ...(log?.figures[platform] ?? {}) }],
        errors: [],
        details: [entry, ...(log?.details ?? [])],
      });
      return reply;
    };
    if (!(await recordDelivery(tx, { platform, deliveryKey, event, email: record?.email ?? null }))) {
      return finish({ ...ignored, duplicate: true }, 'duplicate delivery, ignored');
    }
    if (!record) return finish(ignored, 'not acted on');
    const stored = record.lastChargeAt ? await storedLastCharge(tx, record.platform, record.email) : null;
    if (record.lastChargeAt && stored && record.lastChargeAt.getTime() < stored.getTime()) {
      return finish({ ...ignored, stale: true }, 'older than the stored state, ignored');
    }
    await upsertPlatformRecords(tx, [record], event);
    const reconciled = await reconcileUsers(tx, { emails: [record.email] }, { cause: 'webhook', causeRef: deliveryKey, runId });
    return finish({ ...ignored, applied: true, updated: reconciled.changed }, 'applied', reconciled);
  });
}
