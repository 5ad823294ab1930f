import { Loader2, RefreshCcw } from 'lucide-react';
import { access } from '../../../../contracts/access-policy';
import { Button } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { AdminPageHeader } from '../components/admin-page-header';
import { SyncLog } from '../components/sync-log';
import { SyncNoticeBanner, useSyncRunner } from '../components/sync-runner';

/** /sync: the Sync Systems tool on its own page: run a sync, and what each run did. */
export default function SyncPage() {
  useDocumentTitle('Sync Systems');
  return (
    <AccessGate policy={access.admin}>
      <Sync />
    </AccessGate>
  );
}

function Sync() {
  const { run, syncing, notice } = useSyncRunner();
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:gap-8 sm:py-12">
      <AdminPageHeader
        title="Sync Systems"
        description="Pull memberships from Patreon and Buy Me a Coffee now, and see what each sync changed."
        backTo="/admin-dashboard"
        backLabel="Dashboard"
        actions={
          <Button size="sm" onClick={run} disabled={syncing} aria-busy={syncing}>
            {syncing ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : <RefreshCcw className="size-4" aria-hidden="true" />}
            {syncing ? 'Syncing...' : 'Sync Systems'}
          </Button>
        }
      />
      <div aria-live="polite" className="empty:hidden">
        <SyncNoticeBanner notice={notice} />
      </div>
      <SyncLog />
    </PageContainer>
  );
}
