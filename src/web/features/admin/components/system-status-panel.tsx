import { ArrowUpRight, CheckCircle2, CircleAlert, CircleMinus, Loader2, Server } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { SystemStatus } from '../../../../contracts/admin';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDateTime, relativeTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useChannels } from '../../radio';
import { useTestVipMixes } from '../api/test-vip-mixes';
import type { ListRead } from './admin-page-header';

type Health = 'ok' | 'warn' | 'off';

/** Whole milliseconds; sub-millisecond answers (embedded database) read '<1 ms'. */
function formatMs(ms: number | null): string {
  if (ms === null) return '? ms';
  return ms < 1 ? '<1 ms' : `${Math.round(ms)} ms`;
}

function HealthIcon({ health }: { health: Health }) {
  if (health === 'ok') return <CheckCircle2 className="size-4 shrink-0 text-emerald-400" aria-label="OK" />;
  if (health === 'warn') return <CircleAlert className="size-4 shrink-0 text-rose-400" aria-label="Problem" />;
  return <CircleMinus className="size-4 shrink-0 text-mist-500" aria-label="Not configured" />;
}

function Row({ health, title, children }: { health: Health; title: string; children: ReactNode }) {
  return (
    <li className="flex items-start gap-3 rounded-2xl border border-white/5 bg-white/[0.03] px-4 py-3">
      <span className="mt-0.5">
        <HealthIcon health={health} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-white">{title}</p>
        <div className="mt-0.5 text-sm break-words text-mist-400">{children}</div>
      </div>
    </li>
  );
}

const chip =
  'inline-flex h-9 items-center gap-1.5 rounded-full border border-white/10 bg-white/[0.04] px-3.5 text-xs font-semibold text-mist-200 ' +
  'transition hover:border-aqua-400/40 hover:text-white';

/** API calls an operator opens to check a part by hand; each opens in a new tab. */
const CHECKS: { label: string; href: string }[] = [
  { label: 'Channels', href: '/api/channels' },
  { label: 'Users', href: '/api/admin/users?limit=50' },
  { label: 'Stats', href: '/api/admin/stats' },
  { label: 'Storage configuration', href: '/api/admin/storage-status' },
  { label: 'Health check', href: '/api/health' },
  { label: 'Metadata health', href: '/api/health/metadata' },
];

function ExternalCheck({ label, href }: { label: string; href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener" className={chip}>
      {label}
      <ArrowUpRight className="size-3.5 text-mist-500" aria-hidden="true" />
    </a>
  );
}

/** Calls GET /api/vip/mixes in the page and says what it answered: the number of mixes, or the error. */
function VipMixesCheck() {
  const test = useTestVipMixes();
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className={cn(chip, 'disabled:cursor-wait')} onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending && <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />}
        VIP mixes
      </button>
      <span role="status" className="text-xs empty:hidden" data-testid="vip-mixes-check">
        {test.isSuccess && <span className="text-emerald-300">{`${test.data} ${test.data === 1 ? 'mix' : 'mixes'}`}</span>}
        {test.isError && <span className="text-rose-300">{`Failed: ${errorMessage(test.error, test.error.message)}`}</span>}
      </span>
    </span>
  );
}

function StatusBody({ status }: { status: SystemStatus }) {
  const db = status.database;
  const last = status.lastSync;
  return (
    <ul className="flex flex-col gap-2.5">
      <Row health={db.ok ? 'ok' : 'warn'} title={`Database · ${db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}`}>
        {db.ok ? `Answering in ${formatMs(db.latencyMs)}` : `Not answering: ${db.error ?? 'unknown error'}`}
      </Row>
      {status.platforms.map((p) => {
        const health: Health = !p.configured ? 'off' : p.lastSync && !p.lastSync.ok ? 'warn' : 'ok';
        return (
          <Row key={p.platform} health={health} title={p.label}>
            {p.configured ? 'API token set' : 'Not configured (no API token)'}
            {' · '}
            {p.webhookConfigured ? 'webhook secret set' : 'no webhook secret'}
            {p.lastSync ? (
              <span className="block">
                Last sync {relativeTime(p.lastSync.at).toLowerCase()}:{' '}
                {p.lastSync.ok ? `${p.lastSync.fetched} members read` : `failed — ${p.lastSync.error ?? 'unknown error'}`}
              </span>
            ) : (
              p.configured && <span className="block">Not synced yet</span>
            )}
          </Row>
        );
      })}
      <Row health={!last ? 'off' : last.ok ? 'ok' : 'warn'} title="Subscription sync">
        {last ? (
          <>
            {last.trigger === 'manual' ? 'Manual' : 'Scheduled'} run {relativeTime(last.at).toLowerCase()} ({formatDateTime(last.at)}): {last.updated}{' '}
            {last.updated === 1 ? 'member' : 'members'} updated
            {last.errors.map((e) => (
              <span key={e} className="block text-rose-300">
                {e}
              </span>
            ))}
          </>
        ) : (
          'No sync has run yet'
        )}
        <span className="block">{status.backgroundJobs ? `Runs every ${status.syncIntervalMin} min` : 'Scheduled sync is off on this instance'}</span>
      </Row>
      {status.channels.map((c) => (
        <Row key={c.id} health={c.reachable ? 'ok' : 'warn'} title={`Channel ${c.name}`}>
          {c.reachable
            ? `Stream server reachable${c.latencyMs !== null ? ` (${formatMs(c.latencyMs)})` : ''}${c.listeners !== null ? ` · ${c.listeners} listening` : ''}`
            : `Stream server unreachable: ${c.error ?? 'no answer'}`}
          {c.mounts.map((m) => (
            <span key={m.mount} className="block" data-testid={`mount-listeners-${m.mount}`}>
              {m.mount} · {m.bitrateLabel} {m.requiredTier === 'free' ? 'free' : `${m.requiredTier.toUpperCase()}+`}:{' '}
              {m.listeners === null ? 'off air' : `${m.listeners} ${m.listeners === 1 ? 'listener' : 'listeners'}`}
            </span>
          ))}
        </Row>
      ))}
    </ul>
  );
}

/** System Status, computed by the server on each load; never fixed texts. */
export function SystemStatusPanel({ read }: { read: ListRead & { data: SystemStatus | undefined } }) {
  const { data: status, isPending: loading, error } = read;
  const channels = useChannels();
  return (
    <Card role="region" aria-labelledby="system-status-heading" className="flex min-w-0 flex-col gap-5">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-3">
          <Server className="size-5 text-aqua-300" aria-hidden="true" />
          <h2 id="system-status-heading" className="text-lg font-semibold text-white">
            System Status
          </h2>
        </div>
        {status && <p className="text-xs text-mist-500">Checked {formatDateTime(status.checkedAt)}</p>}
      </header>

      {status ? (
        <StatusBody status={status} />
      ) : loading ? (
        <Spinner label="Checking the system..." showLabel />
      ) : (
        <LoadError
          what="the system status"
          detail={errorMessage(error, error instanceof Error ? error.message : 'unknown error')}
          onRetry={() => void read.refetch()}
          retrying={read.isFetching}
          compact
        />
      )}

      <div className="flex flex-col gap-3">
        <h3 className="text-xs font-semibold tracking-[0.16em] text-mist-400 uppercase">Checks</h3>
        <div className="flex flex-wrap gap-2">
          {/* Per channel, from the channel list: its live metadata and its stream. */}
          {channels.data?.map((c) => (
            <Fragment key={c.id}>
              <ExternalCheck label={`Live metadata ${c.name}`} href={`/api/live-metadata/${encodeURIComponent(c.id)}`} />
              {c.freeStreamUrl && <ExternalCheck label={`Free stream ${c.name}`} href={c.freeStreamUrl} />}
              {/* The premium mount opens only with a token: this answers the URL with a fresh one. */}
              <ExternalCheck label={`Stream test ${c.name}`} href={`/api/channels/${encodeURIComponent(c.id)}/stream`} />
            </Fragment>
          ))}
          <VipMixesCheck />
          {CHECKS.map((c) => (
            <ExternalCheck key={c.href} {...c} />
          ))}
          <Link to="/live-monitor" className={chip}>
            Live monitor
          </Link>
          <Link to="/admin/track-history" className={chip}>
            Track history
          </Link>
          <Link to="/admin/news-sources" className={chip}>
            News sources
          </Link>
        </div>
      </div>
    </Card>
  );
}
