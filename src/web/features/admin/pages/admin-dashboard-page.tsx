import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Crown, Download, LayoutGrid, Loader2, Music4, RefreshCcw, RefreshCw, Users } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { access } from '../../../../contracts/access-policy';
import { SYNC_WORDS, type AdminStats, type SyncResult } from '../../../../contracts/admin';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { EMPTY_STATS, useAdminStats } from '../api/get-admin-stats';
import { useTodayDownloads } from '../api/get-download-stats';
import { useSystemStatus } from '../api/get-system-status';
import { adminKeys } from '../api/keys';
import { AdminTiles } from '../components/admin-tiles';
import { BulkImportDialog } from '../components/bulk-import-dialog';
import { HeldChangesPanel } from '../components/held-changes-panel';
import { SyncDialog } from '../components/sync-dialog';
import { StatCard } from '../components/stat-card';
import { StatusBanner } from '../components/status-banner';
import { SubscriptionAnalytics } from '../components/subscription-analytics';
import { SyncLog } from '../components/sync-log';
import { SystemStatusPanel } from '../components/system-status-panel';
import { UnmatchedCallout } from '../components/unmatched-callout';
import { WaitingWork } from '../components/waiting-work';
import type { StatusMessage } from '../lib/use-status-message';
import { membersLink } from '../lib/member-filters';
import { formatNumber } from '../../../lib/numbers';
import { tierLabel } from '../../../../contracts/tier-table';

/** Paths of the dashboard that open one of its tools: Sync Systems with its log, or the Bulk Import dialog. */
const SYNC_PATH = '/sync';
const BULK_IMPORT_PATH = '/bulk-import';

/** /admin, /admin-dashboard and the paths that show it (/sync and /bulk-import open their tool). */
export default function AdminDashboardPage() {
  useDocumentTitle('Admin Dashboard');
  return (
    <AccessGate policy={access.admin}>
      <Dashboard />
    </AccessGate>
  );
}

function Dashboard() {
  const qc = useQueryClient();
  const stats = useAdminStats();
  const downloads = useTodayDownloads();
  const system = useSystemStatus();
  const [syncOpen, setSyncOpen] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [importOpen, setImportOpen] = useState(pathname === BULK_IMPORT_PATH);
  // The same page answers several paths: arriving at /bulk-import from another of them opens the dialog too.
  const [shownPath, setShownPath] = useState(pathname);
  if (pathname !== shownPath) {
    setShownPath(pathname);
    if (pathname === BULK_IMPORT_PATH) setImportOpen(true);
  }
  const syncSection = useRef<HTMLElement>(null);
  useEffect(() => {
    if (pathname === SYNC_PATH) syncSection.current?.scrollIntoView({ block: 'start' });
  }, [pathname]);
  // The spec's alerts for Sync Systems, shown in the page (a blocking window.alert would freeze the console).
  const [syncNotice, setSyncNotice] = useState<(StatusMessage & { details?: string[] }) | null>(null);

  const s = stats.data ?? EMPTY_STATS;
  const refreshing = stats.isFetching || downloads.isFetching || system.isFetching;

  function refresh() {
    void qc.invalidateQueries({ queryKey: adminKeys.all });
  }

  function importOpenChange(open: boolean) {
    setImportOpen(open);
    // Closing the tool opened by its own path leaves that path, so Back and a reload do not reopen it.
    if (!open && pathname === BULK_IMPORT_PATH) void navigate('/admin-dashboard', { replace: true });
  }

  function runSync() {
    setSyncNotice(null);
    setSyncOpen(true);
  }

  function syncDone(res: SyncResult) {
    setSyncNotice({ kind: res.errors.length ? 'error' : 'success', text: SYNC_WORDS.notice(res), details: res.errors });
  }

  return (
    <PageContainer width="wide" className="flex flex-col gap-8 py-8 sm:py-12">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="mb-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">Operator console</p>
          <h1 className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">Admin Dashboard</h1>
          <p className="mt-2 text-sm text-mist-400 sm:text-base">Members, subscriptions and the health of the station at a glance.</p>
        </div>
        <div className="flex shrink-0 gap-2">
          <ButtonLink to="/" variant="ghost" size="sm">
            <ArrowLeft className="size-4" aria-hidden="true" />
            Back
          </ButtonLink>
          <Button variant="secondary" size="sm" onClick={refresh} disabled={refreshing}>
            <RefreshCw className={cn('size-4', refreshing && 'animate-spin')} aria-hidden="true" />
            Refresh
          </Button>
        </div>
      </header>

      <KeyFigures stats={s} loading={stats.isPending} downloads={downloads.data} downloadsLoading={downloads.isPending} />

      <WaitingWork stats={s} loading={stats.isPending} />
      <UnmatchedCallout
        count={s.unmatchedSupporters}
        loading={stats.isPending}
        {...(system.data ? { platformsConfigured: system.data.platforms.some((p) => p.configured) } : {})}
      />
      <HeldChangesPanel count={s.supportersHeld} />

      {syncNotice && (
        <div className="flex flex-col gap-2">
          <StatusBanner message={syncNotice} />
          {syncNotice.details?.map((d) => (
            <p key={d} className="pl-11 text-sm text-rose-300">
              {d}
            </p>
          ))}
        </div>
      )}

      {pathname === SYNC_PATH && (
        <section ref={syncSection} aria-labelledby="sync-heading" className="flex scroll-mt-24 flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="sync-heading" className="flex items-center gap-2 text-lg font-semibold text-white">
              <RefreshCcw className="size-5 text-deep-300" aria-hidden="true" />
              Sync Systems
            </h2>
            <Button size="sm" onClick={runSync} disabled={syncOpen} aria-busy={syncOpen}>
              {syncOpen && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
              {syncOpen ? 'Syncing...' : 'Sync Systems'}
            </Button>
          </div>
          <SyncLog />
        </section>
      )}

      <section aria-labelledby="tools-heading" className="flex flex-col gap-4">
        <h2 id="tools-heading" className="flex items-center gap-2 text-lg font-semibold text-white">
          <LayoutGrid className="size-5 text-deep-300" aria-hidden="true" />
          Tools
        </h2>
        <AdminTiles onSync={runSync} syncing={syncOpen} onBulkImport={() => setImportOpen(true)} />
      </section>

      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2 lg:gap-6">
        <SubscriptionAnalytics stats={s} loading={stats.isPending} />
        <SystemStatusPanel read={system} />
      </div>

      <SyncDialog open={syncOpen} onOpenChange={setSyncOpen} onDone={syncDone} />
      <BulkImportDialog open={importOpen} onOpenChange={importOpenChange} onImported={refresh} />
    </PageContainer>
  );
}

/** Total users (with the member buckets), VIP members (with DHR2 and DHR1), VIP mixes, downloads today. */
function KeyFigures({
  stats,
  loading,
  downloads,
  downloadsLoading,
}: {
  stats: AdminStats;
  loading: boolean;
  downloads: number | undefined;
  downloadsLoading: boolean;
}) {
  return (
    <section aria-label="Key figures" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        label="Total Users"
        icon={Users}
        value={stats.totalUsers}
        loading={loading}
        to={membersLink({})}
        detail={<MemberBuckets buckets={stats.buckets} />}
      />
      <StatCard
        label={`${tierLabel('vip')} Members`}
        icon={Crown}
        value={stats.vipUsers}
        loading={loading}
        to={membersLink({ effectiveTier: 'vip' })}
        detail={
          <>
            <Link to={membersLink({ effectiveTier: 'dhr2' })} className="hover:text-aqua-200">
              {tierLabel('dhr2')} {formatNumber(stats.dhr2Users)}
            </Link>
            {' · '}
            <Link to={membersLink({ effectiveTier: 'dhr1' })} className="hover:text-aqua-200">
              {tierLabel('dhr1')} {formatNumber(stats.dhr1Users)}
            </Link>
          </>
        }
      />
      <StatCard label="VIP Mixes" icon={Music4} value={stats.totalMixes} loading={loading} detail={`${formatNumber(stats.totalTracks)} tracks identified`} />
      <StatCard label="Downloads Today" icon={Download} value={downloads ?? 0} loading={downloadsLoading} detail="Since midnight, Dublin time" />
    </section>
  );
}

/** The four member buckets under the total: they add up to it, and the status tiles show the same numbers. */
function MemberBuckets({ buckets }: { buckets: AdminStats['buckets'] }) {
  const parts = [
    { id: 'active', bucket: 'active', label: 'active', value: buckets.active, dot: 'bg-emerald-400' },
    { id: 'cancelled-with-access', bucket: 'cancelledWithAccess', label: 'cancelled w/ access', value: buckets.cancelledWithAccess, dot: 'bg-amber-400' },
    { id: 'expired', bucket: 'expired', label: 'expired', value: buckets.expired, dot: 'bg-rose-400' },
    { id: 'free', bucket: 'free', label: 'free / never paid', value: buckets.free, dot: 'bg-mist-400' },
  ] as const;
  return (
    <span className="flex flex-col gap-0.5">
      {parts.map((p) => (
        <span key={p.id} className="flex items-start gap-1.5" data-testid={`member-bucket-${p.id}`}>
          <span className={cn('mt-[calc(0.8125em-3px)] size-1.5 shrink-0 rounded-full', p.dot)} aria-hidden="true" />
          <Link to={membersLink({ access: p.bucket })} className="tap-target hover:text-aqua-200">
            <span className="font-semibold text-mist-200 tabular-nums">{formatNumber(p.value)}</span> {p.label}
          </Link>
        </span>
      ))}
    </span>
  );
}
