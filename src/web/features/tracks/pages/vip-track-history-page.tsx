import { access } from '../../../../contracts/access-policy';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { TrackHistoryView } from '../components/track-history-view';

/** /vip/track-history and /track-history: the VIP history (admins pass too). */
export default function VipTrackHistoryPage() {
  useDocumentTitle('Track History');
  return (
    <AccessGate policy={access.tier('vip')}>
      <TrackHistoryView scope="vip" />
    </AccessGate>
  );
}
