import { access } from '../../../../contracts/access-policy';
import { PageContainer } from '../../../components/ui/page-container';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { AdminPageHeader, StickyStatus } from '../components/admin-page-header';
import { SyncLog } from '../components/sync-log';
import { UnmatchedSupporters } from '../components/unmatched-supporters';
import { useStatusMessage } from '../lib/use-status-message';

/** /admin/supporters: paying supporters that match no account, and the sync log. */
export default function SupportersPage() {
  useDocumentTitle('Supporters');
  return (
    <AccessGate policy={access.admin}>
      <Supporters />
    </AccessGate>
  );
}

function Supporters() {
  const status = useStatusMessage();
  const feedback = { onSuccess: status.success, onError: status.error };
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:gap-8 sm:py-12">
      <AdminPageHeader
        title="Supporters"
        description="Every paying supporter, matched to an account, and what each sync did."
        backTo="/admin-dashboard"
        backLabel="Dashboard"
      />
      <StickyStatus message={status.message} />
      <UnmatchedSupporters {...feedback} />
      <SyncLog />
    </PageContainer>
  );
}
