import { useEffect, useState } from 'react';
import { SYNC_WORDS, type BulkPlan, type PlanDifference, type SyncResult } from '../../../../contracts/admin';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, errorMessage } from '../../../lib/http';
import { formatNumber } from '../../../lib/numbers';
import { useSyncSubscriptions } from '../api/sync-subscriptions';
import { BulkPlanView } from './bulk-plan';

export interface SyncDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The applied run's outcome, for the page's notice. */
  onDone: (result: SyncResult) => void;
}

const PLATFORM_NAMES: Record<SyncResult['platforms'][number]['platform'], string> = { patreon: 'Patreon', buymeacoffee: 'Buy Me a Coffee' };

/** A 409 plan_changed: the new plan and what it takes that the previewed one did not. */
function changedPlan(err: unknown): { plan: BulkPlan; difference: PlanDifference } | null {
  if (!(err instanceof ApiError) || err.code !== 'plan_changed') return null;
  const body = err.body as { plan?: BulkPlan; difference?: PlanDifference } | undefined;
  return body?.plan && body.difference ? { plan: body.plan, difference: body.difference } : null;
}

/**
 * Sync Systems, previewed: opening asks the platforms and shows what the sync would change, with
 * every platform whose listing failed in red at the top (its members are left alone); Apply runs
 * the plan shown (its planId; with confirmation when it ends many members' subscriptions). When the
 * plan changed meanwhile, the server applies nothing: the difference and the new plan are shown and
 * Apply asks again.
 */
export function SyncDialog({ open, onOpenChange, onDone }: SyncDialogProps) {
  const preview = useSyncSubscriptions();
  const apply = useSyncSubscriptions();
  const { mutate: runPreview } = preview;
  const { reset: resetApply } = apply;
  const [replanned, setReplanned] = useState<{ plan: BulkPlan; difference: PlanDifference } | null>(null);

  // Each opening asks the platforms afresh.
  useEffect(() => {
    if (!open) return;
    resetApply();
    runPreview({ dryRun: true }, { onSettled: () => setReplanned(null) });
  }, [open, runPreview, resetApply]);

  // A plan_changed answer of the last opening is not shown while this opening asks afresh.
  const replannedNow = preview.isPending ? null : replanned;
  const plan = preview.isPending ? undefined : (replannedNow?.plan ?? preview.data?.plan);
  const outcomes = (preview.data?.platforms ?? []).filter((p) => p.attempted);
  const failed = outcomes.filter((p) => !p.ok);
  const answered = outcomes.filter((p) => p.ok);
  const held = answered.filter((p) => p.held);
  const failure = replannedNow ? null : (apply.error ?? preview.error);
  const error = failure ? errorMessage(failure, failure.message) : null;

  function go() {
    if (!plan) return;
    apply.mutate(
      { confirm: plan.needsConfirmation, planId: plan.planId },
      {
        onSuccess: (res) => {
          onDone(res);
          onOpenChange(false);
        },
        onError: (err) => setReplanned(changedPlan(err)),
      },
    );
  }

  const losses = plan ? plan.counts.loseAccess + plan.counts.stopPaying : 0;
  const nothingAnswered = preview.isSuccess && answered.length === 0;
  const only = failed.length > 0 && answered.length > 0 ? answered.map((p) => PLATFORM_NAMES[p.platform]).join(' and ') : null;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title="Sync Systems"
      description="Patreon and Buy Me a Coffee are asked for their supporters; nothing changes until you apply."
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant={plan?.needsConfirmation ? 'danger' : 'primary'}
            onClick={go}
            disabled={!plan || nothingAnswered || apply.isPending}
            data-testid="sync-apply"
          >
            {apply.isPending
              ? 'Syncing...'
              : plan?.needsConfirmation
                ? `Apply and end ${formatNumber(losses)} subscriptions`
                : only
                  ? SYNC_WORDS.applyOnly(only)
                  : 'Apply sync'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {failed.map((p) => (
          <p
            key={p.platform}
            role="alert"
            className="rounded-2xl border border-rose-400/30 bg-rose-500/10 px-4 py-3 text-sm break-words text-rose-200"
            data-testid={`sync-failed-${p.platform}`}
          >
            {SYNC_WORDS.failed(p.error ?? `${PLATFORM_NAMES[p.platform]}: no complete answer`)}
          </p>
        ))}
        {nothingAnswered && <p className="text-sm font-semibold text-rose-200">{SYNC_WORDS.noneAnswered}</p>}
        {held.map((p) => (
          <p key={p.platform} role="status" className="rounded-2xl border border-amber-400/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
            {p.held}
          </p>
        ))}
        {replannedNow && (
          <div role="alert" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 px-4 py-3 text-sm text-rose-100" data-testid="sync-plan-changed">
            <p>{replannedNow.difference.words}</p>
            <p className="mt-1 text-rose-200">{SYNC_WORDS.planChanged}</p>
          </div>
        )}
        {preview.isPending && <Spinner label="Asking the platforms..." />}
        {error && (
          <p role="alert" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 px-4 py-3 text-sm break-words text-rose-200">
            {error}
          </p>
        )}
        {plan && <BulkPlanView plan={plan} title={replannedNow ? 'What this sync would change now' : 'What this sync would change'} />}
      </div>
    </Dialog>
  );
}
