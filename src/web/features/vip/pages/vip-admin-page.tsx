import { Crown, Database, ExternalLink, RefreshCw, Upload } from 'lucide-react';
import { access } from '../../../../contracts/access-policy';
import { ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { PageContainer } from '../../../components/ui/page-container';
import { Spinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useAdminMixes } from '../api/admin-mixes';
import { AdminMixRow } from '../components/admin-mix-row';
import { MixUploadForm } from '../components/mix-upload-form';

/** /vip-admin: the library with artwork, hidden state and storage links; upload, edit, edit links, delete. */
export default function VipAdminPage() {
  useDocumentTitle('VIP Content');
  return (
    <AccessGate policy={access.admin}>
      <VipAdmin />
    </AccessGate>
  );
}

function VipAdmin() {
  const library = useAdminMixes();
  const { data: mixes, isPending, isError } = library;
  return (
    <PageContainer className="py-10 sm:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-amber-200 uppercase">
            <Crown className="size-4" aria-hidden="true" /> Admin
          </p>
          <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white">VIP Content</h1>
          <p className="mt-2 text-mist-300">{mixes ? `${mixes.length} mixes in the library.` : 'The VIP mix library and the storage link of each mix.'}</p>
        </div>
        <nav className="flex flex-wrap gap-2" aria-label="VIP admin links">
          <ButtonLink to="/sync" variant="secondary" size="sm">
            <RefreshCw className="size-4" aria-hidden="true" /> Sync
          </ButtonLink>
          <ButtonLink to="/bulk-import" variant="secondary" size="sm">
            <Upload className="size-4" aria-hidden="true" /> Bulk Import
          </ButtonLink>
          <ButtonLink to="/storage-setup" variant="secondary" size="sm">
            <Database className="size-4" aria-hidden="true" /> Storage Setup
          </ButtonLink>
          <ButtonLink to="/vip" variant="secondary" size="sm">
            <ExternalLink className="size-4" aria-hidden="true" /> VIP Page
          </ButtonLink>
        </nav>
      </header>
      <MixUploadForm />
      {isPending ? (
        <div className="mt-12 flex justify-center">
          <Spinner label="Loading mixes..." />
        </div>
      ) : isError ? (
        <LoadError className="mt-12" what="the mixes" onRetry={() => void library.refetch()} retrying={library.isFetching} />
      ) : (
        <ul className="mt-8 space-y-3">
          {mixes.map((mix) => (
            <AdminMixRow key={mix.id} mix={mix} />
          ))}
        </ul>
      )}
    </PageContainer>
  );
}
