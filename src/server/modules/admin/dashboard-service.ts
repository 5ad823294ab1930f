import fs from 'node:fs/promises';
import type { AdminStats, PlatformStatus, StorageStatus, SystemStatus } from '../../../contracts/admin';
import type { Config } from '../../config';
import type { Database, Db } from '../../db/client';
import { CachedRead } from '../../lib/cached-read';
import type { MediaStorage } from '../../lib/storage/media-storage';
import type { Platform } from '../../db/schema';
import { memberFigures } from '../members/members-repository';
import { countHeldMembers } from '../members/grants-repository';
import { countDownloadsSince, mixStorageCounts } from '../mixes/mixes-repository';
import { recentSyncRuns, unmatchedSupporters } from '../platforms/platforms-repository';
import { platformConfigured } from '../platforms/sync';
import { PLATFORM_LABELS } from '../platforms/clients';
import { listChannels } from '../radio/channels-repository';
import { countIdentifications } from '../tracks/tracks-repository';
import { fetchStatus, findMount, mountPath, statusUrlFor } from '../radio/icecast-status';
import { startOfDayDublin } from '../../lib/dates';
import { countUnhandled } from '../contact/contact-repository';
import { countUnreviewed } from '../submissions/submissions-repository';
import { moderationPendingCount } from './moderation-queue-service';

/** Downloads since midnight in Dublin. */
function downloadsToday(db: Db, now: Date = new Date()): Promise<number> {
  return countDownloadsSince(db, startOfDayDublin(now));
}

/**
 * `titleReaders(channel)`: DHR's own in-band title readers connected to the channel's premium mount
 * (radio's NowPlaying.titleReadersOn); Icecast counts them, the listener figures must not.
 */
export function createDashboard(database: Database, config: Config, media: MediaStorage, titleReaders: (channel: string) => number = () => 0) {
  const { db } = database;
  // The dashboard's cards reload together; the storage status page counts live.
  const mediaUsage = new CachedRead({ load: () => media.usage(), maxAgeMs: 30_000 });
  // Listener counts are shown live; a short cache still spares Icecast from a reload storm.
  const channelChecks = new CachedRead({ load: () => checkChannels(db, titleReaders), maxAgeMs: 5_000 });
  // Resolving every active record to its member is a few queries per 500 records: kept briefly.
  const unmatchedCount = new CachedRead({ load: async () => (await unmatchedSupporters(db)).length, maxAgeMs: 15_000 });

  async function stats(now: Date = new Date()): Promise<AdminStats> {
    const [members, totalTracks, mixes, todayDownloads, usage, unmatched, held] = await Promise.all([
      memberFigures(db, now),
      countIdentifications(db),
      mixStorageCounts(db),
      downloadsToday(db, now),
      mediaUsage.get(),
      unmatchedCount.get(),
      countHeldMembers(db),
    ]);
    const [moderationPending, contactUnhandled, submissionsUnreviewed] = await Promise.all([
      moderationPendingCount(db),
      countUnhandled(db),
      countUnreviewed(db),
    ]);
    return {
      totalUsers: members.total,
      activeSubscribers: members.activeSubscribers,
      vipUsers: members.byEffectiveTier.vip,
      dhr2Users: members.byEffectiveTier.dhr2,
      dhr1Users: members.byEffectiveTier.dhr1,
      freeUsers: members.byEffectiveTier.free,
      cancelledWithAccess: members.byBucket.cancelledWithAccess,
      expiredUsers: members.byBucket.expired,
      totalTracks,
      totalMixes: mixes.total,
      todayDownloads,
      storageUsed: usage.bytes,
      statusCounts: members.byStatus,
      pledgeBands: members.byPledgeBand,
      unmatchedSupporters: unmatched,
      supportersHeld: held,
      moderationPending,
      contactUnhandled,
      submissionsUnreviewed,
      buckets: members.byBucket,
    };
  }

  async function storage(): Promise<StorageStatus> {
    const localPath = media.driver === 'local' ? media.location : null;
    const [reach, mixes, folderExists] = await Promise.all([
      media.reachable(),
      mixStorageCounts(db),
      localPath
        ? fs.stat(localPath).then(
            (s) => s.isDirectory(),
            () => false,
          )
        : Promise.resolve(false),
    ]);
    // An unreachable store cannot be counted: its figures are zero and `error` says why.
    const usage = reach.ok ? await media.usage().catch(() => ({ bytes: 0, objects: 0 })) : { bytes: 0, objects: 0 };
    return {
      mode: media.driver,
      location: media.location,
      localPath,
      localPathExists: folderExists,
      reachable: reach.ok,
      error: reach.error,
      bytesUsed: usage.bytes,
      fileCount: usage.objects,
      mixes: { total: mixes.total, withS3Url: mixes.withUrl, withoutS3Url: mixes.total - mixes.withUrl },
      checkedAt: new Date().toISOString(),
    };
  }

  async function systemStatus(): Promise<SystemStatus> {
    const started = performance.now();
    let dbOk = true;
    let dbError: string | null = null;
    try {
      await database.ping();
    } catch (err) {
      dbOk = false;
      dbError = err instanceof Error ? err.message : String(err);
    }
    const latencyMs = dbOk ? Math.round((performance.now() - started) * 10) / 10 : null;
    const [runs, channels] = await Promise.all([dbOk ? recentSyncRuns(db, 50, false, true) : Promise.resolve([]), channelChecks.get()]);
    const platforms: PlatformStatus[] = (['patreon', 'buymeacoffee'] as Platform[]).map((p) => {
      const run = runs.find((r) => r.platforms.some((o) => o.platform === p && o.attempted));
      const outcome = run?.platforms.find((o) => o.platform === p);
      return {
        platform: p,
        label: PLATFORM_LABELS[p],
        configured: platformConfigured(config, p),
        webhookConfigured: Boolean(p === 'patreon' ? config.PATREON_WEBHOOK_SECRET : config.BMC_WEBHOOK_SECRET),
        lastSync: run && outcome ? { at: run.finishedAt.toISOString(), ok: outcome.ok, fetched: outcome.fetched, error: outcome.error } : null,
      };
    });
    const last = runs[0];
    return {
      checkedAt: new Date().toISOString(),
      database: { kind: database.kind, ok: dbOk, latencyMs, error: dbError },
      platforms,
      lastSync: last
        ? { at: last.finishedAt.toISOString(), trigger: last.trigger as 'manual' | 'scheduled', ok: last.ok, updated: last.updated, errors: last.errors }
        : null,
      channels,
      backgroundJobs: config.backgroundJobs,
      syncIntervalMin: config.SYNC_INTERVAL_MIN,
    };
  }

  return { stats, storage, systemStatus, downloadsToday: () => downloadsToday(db) };
}

const CHANNEL_TIMEOUT_MS = 3_000;

/** Asks each channel's Icecast status page (short timeout) for every mount of the channel; reachable = the premium mount's status answered. */
async function checkChannels(db: Db, titleReaders: (channel: string) => number): Promise<SystemStatus['channels']> {
  const list = await listChannels(db);
  // One read per distinct status page: the free and premium mounts usually share one Icecast.
  const reads = new Map<string, Promise<{ doc: unknown; latencyMs: number }>>();
  const read = (statusUrl: string) => {
    let r = reads.get(statusUrl);
    if (!r) {
      const started = performance.now();
      r = fetchStatus(statusUrl, CHANNEL_TIMEOUT_MS).then((doc) => ({ doc, latencyMs: Math.round(performance.now() - started) }));
      reads.set(statusUrl, r);
    }
    return r;
  };
  const listenersOn = async (streamUrl: string, statusUrl: string | null, readers = 0): Promise<number | null> => {
    try {
      const { doc } = await read(statusUrlFor(streamUrl, statusUrl));
      const mount = mountPath(streamUrl);
      const listeners = (mount ? findMount(doc, mount) : null)?.listeners ?? null;
      return listeners === null ? null : Math.max(0, listeners - readers);
    } catch {
      return null;
    }
  };
  return Promise.all(
    list.map(async (c) => {
      const mounts: SystemStatus['channels'][number]['mounts'] = [
        {
          mount: mountPath(c.streamUrl) ?? c.streamUrl,
          bitrateLabel: c.bitrateLabel,
          requiredTier: c.requiredTier,
          listeners: await listenersOn(c.streamUrl, c.statusUrl, titleReaders(c.id)),
        },
      ];
      if (c.freeStreamUrl) {
        mounts.push({
          mount: mountPath(c.freeStreamUrl) ?? c.freeStreamUrl,
          bitrateLabel: c.freeBitrateLabel ?? '',
          requiredTier: 'free',
          listeners: await listenersOn(c.freeStreamUrl, null),
        });
      }
      const counted = mounts.filter((m) => m.listeners !== null);
      const listeners = counted.length > 0 ? counted.reduce((sum, m) => sum + (m.listeners ?? 0), 0) : null;
      let statusUrl = '';
      try {
        statusUrl = statusUrlFor(c.streamUrl, c.statusUrl);
        const { doc, latencyMs } = await read(statusUrl);
        const mount = mountPath(c.streamUrl);
        const m = mount ? findMount(doc, mount) : null;
        return { id: c.id, name: c.name, statusUrl, reachable: true, latencyMs, listeners, mounts, error: m ? null : 'no source is connected to this mount' };
      } catch (err) {
        const e = err as Error;
        return {
          id: c.id,
          name: c.name,
          statusUrl,
          reachable: false,
          latencyMs: null,
          listeners,
          mounts,
          error: e.name === 'TimeoutError' ? `no answer within ${CHANNEL_TIMEOUT_MS} ms` : e.message,
        };
      }
    }),
  );
}
