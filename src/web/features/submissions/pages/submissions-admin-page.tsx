import { Inbox } from 'lucide-react';
import { useState } from 'react';
import { access } from '../../../../contracts/access-policy';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '../../../../contracts/submissions';
import { PageContainer } from '../../../components/ui/page-container';
import { PageSpinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AdminPageHeader, StickyStatus, useStatusMessage } from '../../admin';
import { AccessGate } from '../../auth';
import { useSubmissions } from '../api/get-submissions';
import { LoadError } from '../../../components/ui/load-error';
import { STATUS_LABEL, SubmissionReviewCard } from '../components/submission-review-card';

const FILTERS: (SubmissionStatus | 'all')[] = ['all', ...SUBMISSION_STATUSES];

/** /admin/submissions: the DJ submissions review queue. */
export default function SubmissionsAdminPage() {
  useDocumentTitle('DJ Submissions');
  return (
    <AccessGate policy={access.admin}>
      <Queue />
    </AccessGate>
  );
}

function Queue() {
  const [filter, setFilter] = useState<SubmissionStatus | 'all'>('all');
  const list = useSubmissions(filter);
  const status = useStatusMessage();
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:gap-8 sm:py-12">
      <AdminPageHeader
        backTo="/admin-dashboard"
        backLabel="Dashboard"
        title="DJ Submissions"
        description="Listen, decide, and let the DJ know: accepted and declined mixes are emailed to their DJ."
      />
      <StickyStatus message={status.message} />

      <div role="tablist" aria-label="Filter by status" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:px-0">
        {FILTERS.map((f) => (
          <button
            key={f}
            role="tab"
            type="button"
            aria-selected={filter === f}
            onClick={() => setFilter(f)}
            className={cn(
              'h-9 shrink-0 rounded-full px-4 text-sm font-semibold transition',
              filter === f ? 'bg-white text-night-950' : 'bg-white/5 text-mist-300 ring-1 ring-white/10 hover:bg-white/10',
            )}
          >
            {f === 'all' ? 'All' : STATUS_LABEL[f]}
          </button>
        ))}
      </div>

      {list.isPending ? (
        <PageSpinner label="Loading submissions..." />
      ) : list.isError ? (
        <LoadError what="the submissions" onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : list.data.submissions.length === 0 ? (
        <div className="flex flex-col items-center gap-3 py-16 text-center text-mist-400">
          <Inbox className="size-10" aria-hidden="true" />
          <p>No submissions here yet.</p>
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {list.data.total > list.data.submissions.length && (
            <p className="text-sm text-mist-300 xl:col-span-2">
              Showing {list.data.submissions.length} of {list.data.total}, newest first.
            </p>
          )}
          {list.data.submissions.map((s) => (
            <SubmissionReviewCard key={`${s.id}:${s.status}:${s.note ?? ''}`} s={s} onDone={(ok, text) => (ok ? status.success(text) : status.error(text))} />
          ))}
        </div>
      )}
    </PageContainer>
  );
}
