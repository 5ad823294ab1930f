import { MailCheck } from 'lucide-react';
import { ACCOUNT_MESSAGES } from '../../../../contracts/account-values';
import { Button, ButtonLink } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useConfirmEmailChange } from '../api/confirm-email-change';
import { AuthShell } from '../components/auth-shell';
import { MessageBox } from '../components/message-box';
import { useFragmentToken } from '../lib/fragment-token';

/** /account/email#token=...: the new address's confirmation link; changes the email on a button press only. */
export default function AccountEmailPage() {
  const token = useFragmentToken();
  const confirm = useConfirmEmailChange();
  return (
    <AuthShell title="Confirm your new email" subtitle="Your account moves to this address once you confirm.">
      {!token ? (
        <MessageBox kind="error">{ACCOUNT_MESSAGES.emailChangeInvalid}</MessageBox>
      ) : confirm.isSuccess ? (
        <div className="space-y-4">
          <MessageBox kind="success">{confirm.data.message}</MessageBox>
          <ButtonLink to="/auth" className="w-full">
            Go to my account
          </ButtonLink>
        </div>
      ) : (
        <div className="space-y-4">
          {confirm.isError && <MessageBox kind="error">{errorMessage(confirm.error, ACCOUNT_MESSAGES.emailChangeInvalid)}</MessageBox>}
          <p className="text-sm leading-relaxed text-mist-300">If you did not ask to change a Deep House Radio email, close this page.</p>
          <Button size="lg" className="w-full" disabled={confirm.isPending} onClick={() => confirm.mutate({ token })}>
            <MailCheck className="size-4" aria-hidden /> {confirm.isPending ? 'Confirming...' : 'Confirm my new email'}
          </Button>
        </div>
      )}
    </AuthShell>
  );
}
