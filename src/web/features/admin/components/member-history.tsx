import { tierLabel } from '../../../../contracts/tier-table';
import type { MemberHistory as History } from '../../../../contracts/admin';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useMemberHistory } from '../api/get-member-history';
import { SOURCE_LABEL, STATUS_LABEL } from './options';

const CAUSE_LABEL: Record<History['items'][number]['cause'], string> = {
  sync: 'Platform sync',
  webhook: 'Webhook',
  import: 'Bulk import',
  admin: 'Admin',
  link: 'Supporter linked',
  claim: 'Payment claimed',
  oauth: 'Connect Patreon',
  revert: 'Revert',
  expiry: 'Paid time ran out',
  confirm: 'Held change confirmed',
  signup: 'Sign-up',
};

type Access = History['items'][number]['from'];
const describe = (a: Access) => `${tierLabel(a.tier)} ${STATUS_LABEL[a.status]}${a.expiry ? ` until ${formatDate(a.expiry)}` : ''} (${SOURCE_LABEL[a.source]})`;

/** Every change of a member's access with its cause, newest first (user management's inline edit). */
export function MemberHistory({ userId }: { userId: string }) {
  const history = useMemberHistory(userId);
  return (
    <section aria-label="Access history" className="flex flex-col gap-2 rounded-xl border border-white/5 bg-night-900/40 p-3">
      <h3 className="text-xs font-medium tracking-wide text-mist-300">Access history</h3>
      {history.isPending ? (
        <Spinner label="Loading history..." />
      ) : history.isError ? (
        <LoadError
          what="the access history"
          detail={errorMessage(history.error, history.error.message)}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
          compact
        />
      ) : history.data.items.length === 0 ? (
        <p className="text-sm text-mist-400">No change recorded yet.</p>
      ) : (
        <ol className="flex max-h-56 flex-col gap-2 overflow-y-auto">
          {history.data.items.map((h) => (
            <li key={h.id} className="flex flex-col text-sm" data-testid="history-entry">
              <span className="text-mist-100">
                <span className="font-semibold text-white">{CAUSE_LABEL[h.cause]}</span>
                {h.runId !== null && <span className="text-mist-400"> · run #{h.runId}</span>}
                <span className="text-mist-500"> · {formatDateTime(h.at)}</span>
              </span>
              <span className="text-xs break-words text-mist-400">
                {describe(h.from)} → {describe(h.to)}
                {h.reason ? ` · ${h.reason}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
