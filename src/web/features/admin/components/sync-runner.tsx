import { useState } from 'react';
import { errorMessage } from '../../../lib/http';
import { useSyncSubscriptions } from '../api/sync-subscriptions';
import type { StatusMessage } from '../lib/use-status-message';
import { StatusBanner } from './status-banner';

export type SyncNotice = StatusMessage & { details?: string[] };

/**
 * Sync Systems, shared by the dashboard tile and the /sync page: runs the sync and keeps the spec's
 * 'Sync complete: N users updated' or 'Sync failed' line, shown in the page (a blocking
 * window.alert would freeze the console).
 */
export function useSyncRunner() {
  const sync = useSyncSubscriptions();
  const [notice, setNotice] = useState<SyncNotice | null>(null);
  function run() {
    setNotice(null);
    sync.mutate(undefined, {
      onSuccess: (res) =>
        setNotice({ kind: res.errors.length ? 'error' : 'success', text: `Sync complete: ${res.updated} users updated`, details: res.errors }),
      onError: (err) => setNotice({ kind: 'error', text: `Sync failed: ${errorMessage(err, err instanceof Error ? err.message : 'unknown error')}` }),
    });
  }
  return { run, syncing: sync.isPending, notice };
}

/** The outcome of the last sync and each platform's error under it. */
export function SyncNoticeBanner({ notice }: { notice: SyncNotice | null }) {
  if (!notice) return null;
  return (
    <div className="flex flex-col gap-2">
      <StatusBanner message={notice} />
      {notice.details?.map((d) => (
        <p key={d} className="pl-11 text-sm break-words text-rose-300">
          {d}
        </p>
      ))}
    </div>
  );
}
