import type { StreamConnection } from '../../../../contracts/channels';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useMemberStreamConnections } from '../api/get-member-stream-connections';

function ConnectionLine({ c }: { c: StreamConnection }) {
  return (
    <li className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm" data-testid="stream-connection">
      <span className="font-semibold text-white">{c.mount}</span>
      <span className="font-mono text-xs text-mist-300">{c.network}</span>
      <span className="text-xs text-mist-400">
        since {formatDateTime(c.since)}
        {c.endedAt && ` · ended ${formatDateTime(c.endedAt)}`}
      </span>
      <span className="min-w-0 basis-full truncate text-xs text-mist-400" title={c.userAgent}>
        {c.userAgent || 'no user agent'}
      </span>
    </li>
  );
}

/** Where a member listens to the premium channels now and lately (user management's inline edit). */
export function MemberStreamConnections({ userId }: { userId: string }) {
  const connections = useMemberStreamConnections(userId);
  return (
    <section aria-label="Stream connections" className="mt-2 flex flex-col gap-2 rounded-xl border border-white/5 bg-night-900/40 p-3">
      <h3 className="text-xs font-medium tracking-wide text-mist-300">Premium stream connections</h3>
      {connections.isPending ? (
        <Spinner label="Loading stream connections..." />
      ) : connections.isError ? (
        <LoadError
          what="the stream connections"
          detail={errorMessage(connections.error, connections.error.message)}
          onRetry={() => void connections.refetch()}
          retrying={connections.isFetching}
          compact
        />
      ) : (
        <>
          <p className="text-sm text-mist-300" data-testid="stream-connections-current">
            Listening now on {connections.data.current.length} of {connections.data.maxConcurrent} allowed connections.
          </p>
          {connections.data.current.length > 0 && (
            <ul className="flex flex-col gap-2">
              {connections.data.current.map((c) => (
                <ConnectionLine key={`${c.mount}:${c.since}:${c.network}`} c={c} />
              ))}
            </ul>
          )}
          <h4 className="text-xs font-medium tracking-wide text-mist-400">Recent</h4>
          {connections.data.recent.length === 0 ? (
            <p className="text-sm text-mist-400">No ended connections in the last 30 days.</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {connections.data.recent.map((c) => (
                <ConnectionLine key={`${c.mount}:${c.since}:${c.network}`} c={c} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
