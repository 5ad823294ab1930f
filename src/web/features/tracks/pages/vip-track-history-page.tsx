import { useDocumentTitle } from '../../../lib/use-document-title';
import { RouteGuard } from '../../auth';
import { TrackHistoryView } from '../components/track-history-view';

/** /vip/track-history and /track-history: the VIP history (admins pass too). */
export default function VipTrackHistoryPage() {
  useDocumentTitle('Track History');
  return (
    <RouteGuard requiredTier="vip">
      <TrackHistoryView scope="vip" />
    </RouteGuard>
  );
}
