import { MailCheck } from 'lucide-react';
import { AUTH_MESSAGES } from '../../../../contracts/auth';
import { Button, ButtonLink } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useVerifyEmail } from '../api/verify-email';
import { AuthShell } from '../components/auth-shell';
import { MessageBox } from '../components/message-box';
import { useFragmentToken } from '../lib/fragment-token';

/**
 * /verify-email#token=...: the page the registration mail links to. Confirms on a button press only,
 * so a mail scanner that opens the link cannot confirm an address for whoever registered it.
 */
export default function VerifyEmailPage() {
  const token = useFragmentToken();
  const verify = useVerifyEmail();

  return (
    <AuthShell title="Confirm your email" subtitle="Confirming ties your Patreon or Buy Me a Coffee membership to this account.">
      {!token ? (
        <MessageBox kind="error">{AUTH_MESSAGES.verifyLinkInvalid}</MessageBox>
      ) : verify.isSuccess ? (
        <div className="space-y-4">
          <MessageBox kind="success">{verify.data.message}</MessageBox>
          <ButtonLink to="/" className="w-full">
            Go to the radio
          </ButtonLink>
        </div>
      ) : (
        <div className="space-y-4">
          {verify.isError && <MessageBox kind="error">{errorMessage(verify.error, AUTH_MESSAGES.verifyLinkInvalid)}</MessageBox>}
          <p className="text-sm leading-relaxed text-mist-300">If you did not create a Deep House Radio account, close this page.</p>
          <Button size="lg" className="w-full" onClick={() => verify.mutate({ token })} disabled={verify.isPending}>
            <MailCheck className="size-4" aria-hidden /> {verify.isPending ? 'Confirming...' : 'Confirm my email'}
          </Button>
        </div>
      )}
    </AuthShell>
  );
}
