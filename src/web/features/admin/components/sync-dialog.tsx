import { useEffect } from 'react';
import type { SyncResult } from '../../../../contracts/admin';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { formatNumber } from '../../../lib/numbers';
import { useSyncSubscriptions } from '../api/sync-subscriptions';
import { BulkPlanView } from './bulk-plan';

export interface SyncDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The applied run's outcome, for the page's notice. */
  onDone: (result: SyncResult) => void;
}

/**
 * Sync Systems, previewed: opening asks the platforms and shows what the sync would change; Apply
 * runs it (with confirmation when it ends many members' subscriptions).
 */
export function SyncDialog({ open, onOpenChange, onDone }: SyncDialogProps) {
  const preview = useSyncSubscriptions();
  const apply = useSyncSubscriptions();
  const { mutate: runPreview } = preview;
  const { reset: resetApply } = apply;

  // Each opening asks the platforms afresh.
  useEffect(() => {
    if (!open) return;
    resetApply();
    runPreview({ dryRun: true });
  }, [open, runPreview, resetApply]);

  const failure = apply.error ?? preview.error;
  const error = failure ? errorMessage(failure, failure.message) : null;

  const plan = preview.data?.plan;
  const platformErrors = preview.data?.errors ?? [];

  function go() {
    apply.mutate(
      { confirm: plan?.needsConfirmation === true },
      {
        onSuccess: (res) => {
          onDone(res);
          onOpenChange(false);
        },
      },
    );
  }

  const losses = plan?.counts.loseAccess ?? 0;
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
          <Button variant={plan?.needsConfirmation ? 'danger' : 'primary'} onClick={go} disabled={!plan || apply.isPending} data-testid="sync-apply">
            {apply.isPending ? 'Syncing...' : plan?.needsConfirmation ? `Apply and end ${formatNumber(losses)} subscriptions` : 'Apply sync'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {preview.isPending && <Spinner label="Asking the platforms..." />}
        {error && (
          <p role="alert" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 px-4 py-3 text-sm break-words text-rose-200">
            {error}
          </p>
        )}
        {platformErrors.map((e) => (
          <p key={e} className="text-sm text-rose-300">
            {e}
          </p>
        ))}
        {plan && <BulkPlanView plan={plan} title="What this sync would change" />}
      </div>
    </Dialog>
  );
}
