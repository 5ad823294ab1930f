import { access } from '../../../../contracts/access-policy';
import { PageContainer } from '../../../components/ui/page-container';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AccessGate } from '../../auth';
import { CreateUserForm } from '../components/create-user-form';
import { QuickAssignForm } from '../components/quick-assign-form';
import { AdminPageHeader, StickyStatus } from '../components/admin-page-header';
import { UsersList } from '../components/users-list';
import { useStatusMessage } from '../lib/use-status-message';

/** /user-management. */
export default function UserManagementPage() {
  useDocumentTitle('User Management');
  return (
    <AccessGate policy={access.admin}>
      <UserManagement />
    </AccessGate>
  );
}

function UserManagement() {
  const status = useStatusMessage();
  const feedback = { onSuccess: status.success, onError: status.error };
  return (
    <PageContainer width="wide" className="flex flex-col gap-6 py-8 sm:gap-8 sm:py-12">
      <AdminPageHeader
        title="User Management"
        description="Create members, grant tiers and keep every subscription in order."
        backTo="/admin-dashboard"
        backLabel="Dashboard"
      />
      <StickyStatus message={status.message} />

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[3fr_2fr] lg:gap-6">
        <CreateUserForm {...feedback} />
        <QuickAssignForm {...feedback} />
      </div>

      <UsersList {...feedback} />
    </PageContainer>
  );
}
