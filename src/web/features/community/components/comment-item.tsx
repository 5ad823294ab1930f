import { Flag } from 'lucide-react';
import { useState } from 'react';
import { COMMENT_MESSAGES, REPORT_REASONS, type Comment, type ReportReason } from '../../../../contracts/community';
import { Badge, TierBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDate, formatDateTime, relativeTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useReportComment } from '../api/report-comment';
import { notify } from '../../../components/ui/toasts';
import { Avatar } from './avatar';

const STATUS_TONE = { approved: 'green', pending: 'yellow', rejected: 'red' } as const;
const REASON_LABEL: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate',
  misinformation: 'Misinformation',
  other: 'Other',
};

/** One comment: who, tier, status, when, the words (always as text), the moderation line, and Report for others. */
export function CommentItem({ comment, canReport, onOpenProfile }: { comment: Comment; canReport: boolean; onOpenProfile: (userId: string) => void }) {
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const report = useReportComment();

  const submitReport = () => {
    if (!reason) return;
    report.mutate(
      { id: comment.id, reason, discussionId: comment.articleId },
      {
        onSuccess: () => notify(COMMENT_MESSAGES.reported),
        onError: (err) => notify(errorMessage(err, COMMENT_MESSAGES.reportFailed)),
        onSettled: () => setReporting(false),
      },
    );
  };

  return (
    <li className="group flex gap-3 rounded-2xl border border-white/5 bg-white/[0.03] p-3.5 transition hover:border-white/10 sm:p-4">
      <Avatar name={comment.username} size="sm" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {comment.userId === null ? (
            <span className="truncate text-sm font-semibold text-mist-300">{comment.username}</span>
          ) : (
            <button
              type="button"
              onClick={() => comment.userId && onOpenProfile(comment.userId)}
              className="truncate text-sm font-semibold text-white underline-offset-4 hover:text-aqua-200 hover:underline"
            >
              {comment.username}
            </button>
          )}
          <TierBadge tier={comment.userTier} />
          <Badge tone={STATUS_TONE[comment.status]} className="capitalize">
            {comment.status}
          </Badge>
          <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt)} className="text-xs text-mist-400">
            {relativeTime(comment.createdAt)}
          </time>
        </div>
        <p className="mt-1.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-mist-100">{comment.content}</p>
        {comment.moderatorUsername && comment.moderatedAt && (
          <p className="mt-2 text-xs text-mist-400">
            Moderated by {comment.moderatorUsername} on {formatDate(comment.moderatedAt)}
          </p>
        )}
        {canReport && !reporting && (
          <button
            type="button"
            onClick={() => setReporting(true)}
            className="mt-2 inline-flex items-center gap-1 rounded-full px-2 py-1 text-xs text-mist-400 transition hover:bg-white/5 hover:text-rose-200"
          >
            <Flag className="size-3.5" aria-hidden /> Report
          </button>
        )}
        {reporting && (
          <div className="mt-3 flex flex-col gap-2 rounded-xl border border-rose-400/20 bg-rose-500/5 p-3 sm:flex-row sm:items-center">
            <label className="sr-only" htmlFor={`reason-${comment.id}`}>
              Reason for reporting
            </label>
            <select
              id={`reason-${comment.id}`}
              value={reason}
              onChange={(e) => setReason(e.target.value as ReportReason | '')}
              className="h-9 flex-1 rounded-full border border-white/10 bg-night-900 px-3 text-sm text-white"
            >
              <option value="">Choose a reason...</option>
              {REPORT_REASONS.map((r) => (
                <option key={r} value={r}>
                  {REASON_LABEL[r]}
                </option>
              ))}
            </select>
            <div className="flex gap-2">
              <Button size="sm" variant="danger" disabled={!reason || report.isPending} onClick={submitReport}>
                Submit Report
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setReporting(false)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
      </div>
    </li>
  );
}
