import { ArrowLeft } from 'lucide-react';
import { access } from '../../../../contracts/access-policy';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { StatusBanner } from '../components/status-banner';
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
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="mb-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">Operator console</p>
          <h1 className="font-display text-3xl font-bold tracking-tight text-white sm:text-4xl">Supporters</h1>
          <p className="mt-2 text-sm text-mist-400 sm:text-base">Every paying supporter, matched to an account, and what each sync did.</p>
        </div>
        <ButtonLink to="/admin-dashboard" variant="ghost" size="sm" className="self-start sm:self-auto">
          <ArrowLeft className="size-4" aria-hidden="true" />
          Dashboard
        </ButtonLink>
      </header>
      <div className="sticky top-20 z-20 rounded-2xl bg-night-900/95 empty:hidden" aria-live="polite">
        <StatusBanner message={status.message} className="shadow-lg shadow-black/40 backdrop-blur" />
      </div>
      <UnmatchedSupporters {...feedback} />
      <SyncLog />
    </PageContainer>
  );
}
