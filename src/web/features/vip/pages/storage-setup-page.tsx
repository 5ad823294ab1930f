import { CheckCircle2, Database, RefreshCw, XCircle } from 'lucide-react';
import { access } from '../../../../contracts/access-policy';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageContainer } from '../../../components/ui/page-container';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/dates';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { useStorageStatus } from '../api/admin-mixes';
import { formatBytes } from '../lib/mix-access';

/** /storage-setup: where media lives and whether it answers, computed live (GET /api/admin/storage-status). */
export default function StorageSetupPage() {
  useDocumentTitle('Storage Setup');
  return (
    <AccessGate policy={access.admin}>
      <StorageSetup />
    </AccessGate>
  );
}

function StorageSetup() {
  const { data, isPending, isError, refetch, isFetching } = useStorageStatus();
  return (
    <PageContainer width="narrow" className="py-10 sm:py-14">
      <p className="flex items-center gap-2 text-xs font-semibold tracking-[0.25em] text-aqua-300 uppercase">
        <Database className="size-4" aria-hidden="true" /> Admin
      </p>
      <h1 className="mt-3 font-display text-4xl font-bold tracking-tight text-white">Storage Setup</h1>
      <p className="mt-2 text-mist-300">
        Where mixes and images are kept. Set S3_BUCKET (with S3_ENDPOINT and the key pair for a non-AWS store) to use a bucket instead of the local folder.
      </p>
      {isPending ? (
        <div className="mt-10 flex justify-center">
          <Spinner label="Checking storage..." />
        </div>
      ) : isError || !data ? (
        <LoadError className="mt-10" what="the storage status" onRetry={() => void refetch()} retrying={isFetching} />
      ) : (
        <section className="glass mt-8 rounded-3xl p-6" data-testid="storage-status">
          <p className="flex items-center gap-2 text-lg font-semibold text-white">
            {data.reachable ? (
              <CheckCircle2 className="size-5 text-emerald-400" aria-hidden="true" />
            ) : (
              <XCircle className="size-5 text-rose-400" aria-hidden="true" />
            )}
            {data.mode === 's3' ? 'S3-compatible bucket' : 'Local folder'}: {data.reachable ? 'reachable' : 'unreachable'}
          </p>
          {data.error && <p className="mt-1 text-sm text-rose-300">{data.error}</p>}
          <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-2">
            <Fact label={data.mode === 's3' ? 'Bucket' : 'Folder'} value={data.location} />
            <Fact label="Space used" value={`${formatBytes(data.bytesUsed)} in ${data.fileCount} files`} />
            <Fact label="Mixes" value={`${data.mixes.total} (${data.mixes.withS3Url} with a file, ${data.mixes.withoutS3Url} without)`} />
            <Fact label="Checked" value={formatDateTime(data.checkedAt)} />
          </dl>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => void refetch()} disabled={isFetching}>
              <RefreshCw className="size-4" aria-hidden="true" /> Check again
            </Button>
            <ButtonLink to="/vip-admin" variant="secondary">
              VIP Content
            </ButtonLink>
          </div>
        </section>
      )}
    </PageContainer>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs font-semibold tracking-[0.18em] text-mist-400 uppercase">{label}</dt>
      <dd className="mt-1 break-all text-mist-100">{value}</dd>
    </div>
  );
}
