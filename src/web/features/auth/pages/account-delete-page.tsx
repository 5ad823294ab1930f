import { Trash2 } from 'lucide-react';
import { ACCOUNT_MESSAGES } from '../../../../contracts/account-values';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { useDeleteAccount } from '../api/delete-account';
import { usePermissions } from '../api/get-permissions';
import { AuthShell } from '../components/auth-shell';
import { MessageBox } from '../components/message-box';
import { useFragmentToken } from '../lib/fragment-token';

/**
 * /account/delete#token=...: the page the deletion mail links to. Deletes on a button press only (mail
 * scanners open links), for the signed-in member the link was sent to; the token travels in the body.
 */
export default function AccountDeletePage() {
  const token = useFragmentToken();
  const permissions = usePermissions();
  const remove = useDeleteAccount();
  if (permissions.isPending) return <PageSpinner label="Checking..." />;
  const signedIn = permissions.data?.authenticated === true;
  return (
    <AuthShell title="Delete my account" subtitle={ACCOUNT_MESSAGES.deleteEndsAccess}>
      {!token ? (
        <MessageBox kind="error">{ACCOUNT_MESSAGES.deleteLinkInvalid}</MessageBox>
      ) : remove.isSuccess ? (
        <div className="space-y-4">
          <MessageBox kind="success">{remove.data.message}</MessageBox>
          <ButtonLink to="/" className="w-full">
            Go to the radio
          </ButtonLink>
        </div>
      ) : !signedIn ? (
        <div className="space-y-4">
          <MessageBox kind="error">Sign in to the account first, then open the link again.</MessageBox>
          <ButtonLink to="/auth" className="w-full">
            Sign in
          </ButtonLink>
        </div>
      ) : (
        <div className="space-y-4">
          {remove.isError && <MessageBox kind="error">{errorMessage(remove.error, ACCOUNT_MESSAGES.deleteLinkInvalid)}</MessageBox>}
          <p className="text-sm leading-relaxed text-mist-300">
            Your account, profile, follows and sessions are removed. Your comments and forum threads stay, shown as written by a deleted member.
          </p>
          <Button variant="danger" size="lg" className="w-full" disabled={remove.isPending} onClick={() => remove.mutate({ token })}>
            <Trash2 className="size-4" aria-hidden /> {remove.isPending ? 'Deleting...' : 'Delete my account now'}
          </Button>
        </div>
      )}
    </AuthShell>
  );
}
