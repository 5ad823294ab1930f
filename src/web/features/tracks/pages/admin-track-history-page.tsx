import { Navigate } from 'react-router';
import { access } from '../../../../contracts/access-policy';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate, usePermissions } from '../../auth';
import { TrackHistoryView } from '../components/track-history-view';

/** /admin/track-history: admins only; a signed-in non-admin is sent to /vip/track-history. */
export default function AdminTrackHistoryPage() {
  useDocumentTitle('Track History');
  const { data } = usePermissions();
  if (data?.authenticated && !data.isAdmin) return <Navigate to="/vip/track-history" replace />;
  return (
    <AccessGate policy={access.admin}>
      <TrackHistoryView scope="admin" />
    </AccessGate>
  );
}
