import { Activity, Crown, Eye, RefreshCw, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { LIVE_MONITOR_REFRESH_MS } from '../../../../contracts/live-values';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { PageSpinner } from '../../../components/ui/spinner';
import { relativeTime } from '../../../lib/dates';
import { ApiError } from '../../../lib/http';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { CheckboxField } from '../../../components/ui/form-controls';
import { AdminPageHeader, StatCard } from '../../admin';
import { usePermissions } from '../../auth';
import { useAnonymousStats } from '../api/get-anonymous-stats';
import { useLiveUsers } from '../api/get-live-users';
import { useRecentActivity } from '../api/get-recent-activity';
import { LiveSessionsTable } from '../components/live-sessions-table';
import { LiveSignInForm } from '../components/live-sign-in-form';
import { tierLabel } from '../../../../contracts/tier-table';

/** /live-monitor: who is on the site now, refreshed every 10 s. */
export default function LiveMonitorPage() {
  useDocumentTitle('Live User Monitor');
  const permissions = usePermissions();
  if (permissions.isPending) return <PageSpinner label="Checking authentication..." />;
  if (!permissions.data?.isAdmin) {
    return (
      <PageContainer width="narrow" className="py-12 sm:py-16">
        <Header />
        <div className="mt-8">
          <LiveSignInForm notice={permissions.data?.authenticated ? 'This account is not an admin. Sign in with an admin account.' : undefined} />
        </div>
      </PageContainer>
    );
  }
  return <Monitor />;
}

function Header({ live = false }: { live?: boolean }) {
  return (
    <AdminPageHeader
      title="Live User Monitor"
      description="Who is listening right now, where they are on the site, and what they just did."
      live={live}
      {...(live ? { backTo: '/admin-dashboard', backLabel: 'Dashboard' } : {})}
    />
  );
}

function Monitor() {
  const users = useLiveUsers(true);
  const activity = useRecentActivity(true);
  const anonymous = useAnonymousStats(true);
  const [showAnonymous, setShowAnonymous] = useState(true);
  // Times are relative to the last refresh, which also re-renders them.
  const now = users.dataUpdatedAt;

  const sessions = useMemo(() => (users.data?.sessions ?? []).filter((s) => showAnonymous || s.userType === 'member'), [users.data, showAnonymous]);

  // The session ended or lost admin rights between two refreshes: back to the sign-in form.
  if (users.error instanceof ApiError && (users.error.status === 401 || users.error.status === 403)) {
    return (
      <PageContainer width="narrow" className="py-12 sm:py-16">
        <Header />
        <div className="mt-8">
          <LiveSignInForm notice="Authentication required" />
        </div>
      </PageContainer>
    );
  }

  const d = users.data;
  const loading = users.isPending;
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:gap-8 sm:py-12">
      <Header live />

      <section aria-label="Live figures" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard
          label="Online Now"
          value={d?.onlineNow ?? 0}
          loading={loading}
          icon={Activity}
          detail={`${d?.membersOnline ?? 0} member${d?.membersOnline === 1 ? '' : 's'}, ${d?.anonymousOnline ?? 0} anonymous`}
        />
        <StatCard label="Total Sessions" value={d?.totalSessions ?? 0} loading={loading} icon={Users} detail="Visits in the last 24 hours" />
        <StatCard
          label={`${tierLabel('vip')} Users Online`}
          value={d?.vipOnline ?? 0}
          loading={loading}
          icon={Crown}
          detail={`Active ${tierLabel('vip')} members on the site`}
        />
        <StatCard
          label="Anonymous Visitors"
          value={anonymous.data?.anonymousOnline ?? d?.anonymousOnline ?? 0}
          loading={loading}
          icon={Eye}
          detail={`${anonymous.data?.totalPageViews ?? 0} page views today`}
        />
      </section>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[2fr_1fr] lg:gap-6">
        <Card padding="none" className="min-w-0 overflow-hidden">
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-white/10 px-4 py-3 sm:px-5">
            <h2 className="font-display text-lg font-semibold text-white">Active Sessions</h2>
            <div className="flex items-center gap-4">
              <CheckboxField
                label={`Show Anonymous (${d?.anonymousOnline ?? 0})`}
                checked={showAnonymous}
                onChange={(e) => setShowAnonymous(e.target.checked)}
              />
              <span className="hidden items-center gap-1.5 text-xs text-mist-500 sm:flex" title={`Refreshes every ${LIVE_MONITOR_REFRESH_MS / 1000} s`}>
                <RefreshCw className={users.isFetching ? 'size-3.5 animate-spin' : 'size-3.5'} aria-hidden="true" />
                every {LIVE_MONITOR_REFRESH_MS / 1000}s
              </span>
            </div>
          </div>
          {loading ? (
            <PageSpinner label="Loading sessions..." />
          ) : users.isError && !d ? (
            <LoadError what="the sessions" onRetry={() => void users.refetch()} retrying={users.isFetching} compact className="m-4" />
          ) : (
            <LiveSessionsTable sessions={sessions} now={now} />
          )}
          {users.isError && d && <p className="px-5 py-3 text-sm text-rose-300">Could not refresh the sessions; retrying.</p>}
        </Card>

        <Card padding="none" className="min-w-0 self-start">
          <h2 className="border-b border-white/10 px-4 py-3 font-display text-lg font-semibold text-white sm:px-5">Recent Activity</h2>
          {activity.data?.length ? (
            // A scrolling list must be reachable by keyboard (WCAG 2.1.1; axe's scrollable-region-focusable): it takes focus and scrolls with the arrows.
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
            <ul className="max-h-[28rem] divide-y divide-white/5 overflow-y-auto" data-testid="recent-activity" tabIndex={0} aria-label="Recent activity">
              {activity.data.map((a) => (
                <li key={a.id} className="px-4 py-3 text-sm sm:px-5">
                  <p className="truncate font-medium text-white">{a.email}</p>
                  <p className="truncate text-mist-400">
                    {a.action} <code className="text-aqua-300">{a.page}</code>
                  </p>
                  <p className="text-xs text-mist-500">{relativeTime(a.timestamp, now)}</p>
                </li>
              ))}
            </ul>
          ) : activity.isError ? (
            <LoadError what="the activity" onRetry={() => void activity.refetch()} retrying={activity.isFetching} compact className="m-4" />
          ) : (
            <p className="px-5 py-10 text-center text-sm text-mist-400">{activity.isPending ? 'Loading activity...' : 'No member activity yet.'}</p>
          )}
        </Card>
      </div>
    </PageContainer>
  );
}
