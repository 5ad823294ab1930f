import type { NewsSource } from '../../../../contracts/news';
import { formatDateTime } from '../../../lib/dates';

/**
 * What a source's last fetch read (docs/decisions/0024-news-from-the-real-web.md): HTTP status,
 * encoding and format, entries new / kept / dropped with the reasons, warnings, and when it is
 * fetched next. The admin sees why a source gives nothing rather than "OK · 0 items".
 */
export function SourceFetchReport({ source: s }: { source: NewsSource }) {
  const r = s.report;
  const facts = [s.httpStatus !== null && `HTTP ${s.httpStatus}`, r?.encoding, r?.format].filter(Boolean).join(' · ');
  return (
    <div className="mt-2 space-y-1 text-xs text-mist-400">
      {facts && <p>{facts}</p>}
      {r && (
        <p>
          {r.found} listed · {r.added} new · {r.kept} kept
          {r.dropped.length > 0 && ` · dropped: ${r.dropped.map((d) => `${d.count} ${d.reason}`).join(', ')}`}
        </p>
      )}
      {r?.note && <p className="text-amber-200">No items: {r.note}</p>}
      {r && r.warnings.length > 0 && (
        <ul aria-label="Warnings" className="list-inside list-disc text-amber-200/90">
          {r.warnings.map((w) => (
            <li key={w} className="break-words">
              {w}
            </li>
          ))}
        </ul>
      )}
      {s.failingSince && <p className="text-rose-200">Failing since {formatDateTime(s.failingSince)}</p>}
      {s.nextFetchAt && <p>Next fetch {formatDateTime(s.nextFetchAt)}</p>}
    </div>
  );
}
