import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { AUTH_MESSAGES } from '../../../../contracts/auth';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { usePermissions } from '../api/get-permissions';
import { useVerifyEmail } from '../api/verify-email';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from '../components/message-box';
import { useFragmentToken } from '../lib/fragment-token';

/**
 * /verify-email#token=...: the page the registration mail links to. Confirms on a button press only
 * (mail scanners open links), and asks for the account's password unless its member is signed in: the
 * inbox alone cannot confirm an account someone else registered under that address.
 */
export default function VerifyEmailPage() {
  const token = useFragmentToken();
  const permissions = usePermissions();
  const verify = useVerifyEmail();
  const [password, setPassword] = useState('');
  const signedIn = permissions.data?.authenticated === true;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    verify.mutate(signedIn ? { token } : { token, password });
  }

  if (permissions.isPending) return <PageSpinner label="Checking..." />;
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
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          {verify.isError && <MessageBox kind="error">{errorMessage(verify.error, AUTH_MESSAGES.verifyLinkInvalid)}</MessageBox>}
          <p className="text-sm leading-relaxed text-mist-300">If you did not create a Deep House Radio account, close this page.</p>
          {!signedIn && (
            <TextField
              size="lg"
              label="Your account password"
              type="password"
              autoComplete="current-password"
              maxLength={200}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
          <Button type="submit" size="lg" className="w-full" disabled={verify.isPending || (!signedIn && !password)}>
            <MailCheck className="size-4" aria-hidden /> {verify.isPending ? 'Confirming...' : 'Confirm my email'}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
