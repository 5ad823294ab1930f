import { Counter, Gauge, type Registry } from 'prom-client';
import type { SyncRunResult, SyncTrigger } from './sync';

/** Prometheus series an operator alerts on: a sync that keeps failing, webhooks being refused. */
export function createPlatformMetrics(registry: Registry) {
  const runs = new Counter({
    name: 'dhr_platform_sync_runs_total',
    help: 'Platform sync runs by trigger and result (ok, partial, failed, skipped)',
    labelNames: ['trigger', 'result'] as const,
    registers: [registry],
  });
  const updated = new Counter({
    name: 'dhr_platform_sync_members_updated_total',
    help: 'Members whose tier, status, expiry or amount a sync changed',
    registers: [registry],
  });
  const lastSuccess = new Gauge({
    name: 'dhr_platform_sync_last_success_timestamp_seconds',
    help: 'When each platform last listed its members successfully (unix seconds)',
    labelNames: ['platform'] as const,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'dhr_platform_webhooks_total',
    help: 'Webhook deliveries by platform and reply status',
    labelNames: ['platform', 'status'] as const,
    registers: [registry],
  });
  return {
    syncDone(trigger: SyncTrigger, r: SyncRunResult) {
      const attempted = r.platforms.filter((p) => p.attempted);
      const failed = attempted.filter((p) => !p.ok).length;
      const result = r.skipped ? 'skipped' : failed === 0 ? 'ok' : failed === attempted.length ? 'failed' : 'partial';
      runs.inc({ trigger, result });
      updated.inc(r.updated);
      const now = Date.now() / 1000;
      for (const p of attempted) if (p.ok) lastSuccess.set({ platform: p.platform }, now);
    },
    webhook(platform: string, status: number) {
      webhooks.inc({ platform, status: String(status) });
    },
  };
}

export type PlatformMetrics = ReturnType<typeof createPlatformMetrics>;
