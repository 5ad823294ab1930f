import { PLATFORM_NAMES } from '../../../../contracts/supporters';
import { TierBadge } from '../../../components/ui/badge';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useMemberPlatformRecords } from '../api/get-member-platform-records';
import { formatEuros } from '../lib/money';
import { STATUS_LABEL } from './options';

const MATCHED_BY = { email: 'their email', oauth: 'Connect Patreon', claim: 'a code to the payer email', admin: 'an admin link' } as const;

/** The platform records that feed a member's access (user management's inline edit). */
export function MemberPlatformRecords({ userId }: { userId: string }) {
  const records = useMemberPlatformRecords(userId);
  return (
    <section aria-label="Platform records" className="flex flex-col gap-2 rounded-xl border border-white/5 bg-night-900/40 p-3">
      <h3 className="text-xs font-medium tracking-wide text-mist-300">Platform records feeding this member</h3>
      {records.isPending ? (
        <Spinner label="Loading platform records..." />
      ) : records.isError ? (
        <LoadError
          what="the platform records"
          detail={errorMessage(records.error, records.error.message)}
          onRetry={() => void records.refetch()}
          retrying={records.isFetching}
          compact
        />
      ) : records.data.length === 0 ? (
        <p className="text-sm text-mist-400">None: no Patreon or Buy Me a Coffee record reaches this member.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {records.data.map((r) => (
            <li key={`${r.platform}:${r.email}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="platform-record">
              <span className="font-semibold text-white">{PLATFORM_NAMES[r.platform]}</span>
              <span className="min-w-0 truncate text-mist-300">{r.email}</span>
              <TierBadge tier={r.tier} />
              <span className="text-xs text-mist-400">
                {STATUS_LABEL[r.status]}
                {r.expiry && ` until ${formatDate(r.expiry)}`} · {formatEuros(r.amountCents)} · {r.platformStatus ?? 'no status'} · via{' '}
                {MATCHED_BY[r.matchedBy]} · {r.lastEvent}, {formatDate(r.updatedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
