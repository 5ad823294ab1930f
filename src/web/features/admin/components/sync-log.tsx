import { ChevronDown, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { PLATFORM_NAMES, type SyncRunSummary } from '../../../../contracts/supporters';
import { Button } from '../../../components/ui/button';
import { useRevertRun } from '../api/revert-run';
import { BulkPlanView } from './bulk-plan';
import { SOURCE_LABEL } from './options';
import { formatNumber } from '../../../lib/numbers';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useSyncRun } from '../api/get-sync-run';
import { useSyncRuns } from '../api/get-sync-runs';
import { ListStates } from './admin-page-header';
import { LoadError } from '../../../components/ui/load-error';

const TRIGGER_LABEL = {
  manual: 'Manual sync',
  scheduled: 'Scheduled sync',
  webhook: 'Webhook',
  import: 'Bulk import',
  revert: 'Revert',
  confirm: 'Held changes confirmed',
} as const;

/** The last syncs and webhook deliveries; one opens to its lines ("why has this member no access?"). */
export function SyncLog() {
  const runs = useSyncRuns();
  const [openId, setOpenId] = useState<number | null>(null);
  return (
    <Card className="flex flex-col gap-5">
      <header className="flex items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
          <ScrollText className="size-5 text-deep-300" aria-hidden="true" />
          Sync log
        </h2>
        {runs.isFetching && !runs.isPending && <Spinner label="Updating log..." />}
      </header>
      <ListStates
        read={runs}
        what="the sync log"
        empty={(runs.data?.length ?? 0) === 0}
        loadingLabel="Loading the sync log..."
        emptyText="No sync has run yet."
      >
        <ul className="flex flex-col gap-2" aria-label="Sync runs">
          {runs.data?.map((r) => (
            <RunRow key={r.id} run={r} open={openId === r.id} onToggle={() => setOpenId(openId === r.id ? null : r.id)} />
          ))}
        </ul>
      </ListStates>
    </Card>
  );
}

function RunRow({ run, open, onToggle }: { run: SyncRunSummary; open: boolean; onToggle: () => void }) {
  const attempted = run.platforms.filter((p) => p.attempted);
  return (
    <li className="rounded-2xl border border-white/5 bg-white/[0.025]" data-testid="sync-run">
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        className="flex w-full flex-col gap-2 px-4 py-3 text-left transition hover:bg-white/[0.04] sm:flex-row sm:items-center sm:gap-4"
      >
        <span className="flex min-w-0 items-center gap-2 sm:w-60 sm:shrink-0">
          {run.state === 'applying' ? (
            <Badge tone="yellow">Applying</Badge>
          ) : run.state === 'interrupted' ? (
            // Stopped part-way: what it applied stays (revertible); running it again applies the rest.
            <Badge tone="red">Interrupted</Badge>
          ) : (
            <Badge tone={run.ok ? 'green' : 'red'}>{run.ok ? 'OK' : 'Errors'}</Badge>
          )}
          <span className="truncate text-sm font-semibold text-white">{TRIGGER_LABEL[run.trigger]}</span>
          {run.revertedAt && <Badge tone="yellow">Reverted</Badge>}
        </span>
        <span className="text-xs text-mist-400 tabular-nums sm:w-44 sm:shrink-0">
          {formatDateTime(run.finishedAt)}
          {run.startedBy && <span className="block truncate">by {run.startedBy}</span>}
          {run.revertedBy && <span className="block truncate">reverted by {run.revertedBy}</span>}
        </span>
        <span className="flex min-w-0 flex-1 flex-wrap gap-x-4 gap-y-1 text-xs text-mist-300">
          {run.note && <span className="truncate">{run.note}</span>}
          {attempted.map((p) => (
            <span key={p.platform} className="tabular-nums">
              <span className="font-semibold text-mist-100">{PLATFORM_NAMES[p.platform]}</span>{' '}
              {p.ok ? `${p.matched ?? '–'} matched · ${p.unmatched ?? '–'} unmatched · ${p.changed ?? '–'} changed` : 'failed'}
            </span>
          ))}
          {run.platforms.length > 0 && attempted.length === 0 && <span>No platform configured</span>}
          {run.platforms.length === 0 && run.trigger !== 'webhook' && <span className="tabular-nums">{formatNumber(run.updated)} members changed</span>}
        </span>
        <ChevronDown className={cn('hidden size-4 shrink-0 text-mist-500 transition sm:block', open && 'rotate-180')} aria-hidden="true" />
      </button>
      {open && <RunDetail id={run.id} errors={run.errors} />}
      {open && run.trigger !== 'revert' && run.updated > 0 && <RevertRun run={run} />}
    </li>
  );
}

function RunDetail({ id, errors }: { id: number; errors: string[] }) {
  const run = useSyncRun(id);
  return (
    <div className="border-t border-white/5 px-4 py-3 text-sm">
      {errors.map((e) => (
        <p key={e} className="mb-2 text-rose-300">
          {e}
        </p>
      ))}
      {run.isPending ? (
        <Spinner label="Loading the run..." />
      ) : run.isError ? (
        <LoadError what="the run" detail={errorMessage(run.error, run.error.message)} onRetry={() => void run.refetch()} retrying={run.isFetching} compact />
      ) : run.data.entries.length === 0 ? (
        <p className="text-mist-400">Nothing changed and every active supporter matched an account.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-white/5" aria-label="Run lines">
          {run.data.entries.map((e, i) => (
            <li key={i} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:gap-3">
              <Badge tone={e.kind === 'changed' ? 'violet' : e.kind === 'unmatched' ? 'yellow' : 'cyan'} className="self-start">
                {e.kind === 'changed' ? 'Changed' : e.kind === 'unmatched' ? 'Unmatched' : 'Delivery'}
              </Badge>
              <span className="min-w-0 break-words text-mist-200">
                <span className="font-semibold text-white">{e.email || '(no email)'}</span>
                {e.memberEmail && <span className="text-mist-400"> → {e.memberEmail}</span>}
                <span className="text-mist-500"> · {SOURCE_LABEL[e.platform]}</span>
                {e.from && e.to && (
                  <span className="block text-xs text-mist-400">
                    {e.from} → {e.to}
                  </span>
                )}
                {e.note && <span className="block text-xs text-mist-400">{e.note}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Revert, asked first: the preview says how many members go back to their state before the run and
 * how many are left alone because a later change touched them.
 */
function RevertRun({ run }: { run: SyncRunSummary }) {
  const runId = run.id;
  const preview = useRevertRun();
  const revert = useRevertRun();
  const plan = preview.data?.plan;
  const skipped = preview.data?.skipped.length ?? 0;
  const members = plan
    ? plan.counts.gainAccess + plan.counts.loseAccess + plan.counts.stopPaying + plan.counts.tierUp + plan.counts.tierDown + plan.counts.detailsChanged
    : 0;
  if (revert.isSuccess) {
    return (
      <p role="status" className="border-t border-white/5 px-4 py-3 text-sm text-emerald-300">
        Reverted: {formatNumber(revert.data.reverted)} members are back to their state before this run
        {revert.data.skipped.length ? `; ${formatNumber(revert.data.skipped.length)} changed again later and were left as they are` : ''}.
      </p>
    );
  }
  if (!run.revertible) {
    return (
      <p className="border-t border-white/5 px-4 py-3 text-sm text-mist-400">
        {run.revertedAt
          ? `Reverted${run.revertedBy ? ` by ${run.revertedBy}` : ''} on ${formatDateTime(run.revertedAt)}${run.revertedByRun ? ` (run #${run.revertedByRun})` : ''}.`
          : 'This run cannot be reverted.'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3 border-t border-white/5 px-4 py-3">
      {!plan ? (
        <div>
          <Button variant="secondary" size="sm" disabled={preview.isPending} onClick={() => preview.mutate({ runId, dryRun: true })}>
            {preview.isPending ? 'Checking...' : 'Revert this run...'}
          </Button>
        </div>
      ) : (
        <>
          <BulkPlanView plan={plan} title="What the revert would change" />
          {skipped > 0 && <p className="text-sm text-amber-200">{formatNumber(skipped)} members changed again after this run and will be left as they are.</p>}
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" size="sm" onClick={() => preview.reset()}>
              Cancel
            </Button>
            <Button
              variant="danger"
              size="sm"
              disabled={revert.isPending || members === 0}
              onClick={() => revert.mutate({ runId, confirm: true, planId: plan.planId })}
              data-testid="revert-confirm"
            >
              {revert.isPending ? 'Reverting...' : `Revert ${formatNumber(members)} members`}
            </Button>
          </div>
        </>
      )}
      {(preview.isError || revert.isError) && (
        <p role="alert" className="text-sm text-rose-300">
          {errorMessage(preview.error ?? revert.error, 'The revert failed. Please try again.')}
        </p>
      )}
    </div>
  );
}
