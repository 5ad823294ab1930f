import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LINK_INVALID_MESSAGE } from '../../../../contracts/auth';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { useSignInLinkPreview, useSignInWithLink } from '../api/sign-in-link';
import { AuthShell } from '../components/auth-shell';
import { MessageBox } from '../components/message-box';
import { useFragmentToken } from '../lib/fragment-token';

/**
 * /simple-auth/link#token=...: the page a sign-in mail links to. Opening it signs nobody in (mail
 * scanners open links); it names the account and signs in when the member presses the button, so a
 * link someone else sent cannot quietly sign you into their account.
 */
export default function SignInLinkPage() {
  const token = useFragmentToken();
  const preview = useSignInLinkPreview(token);
  const signIn = useSignInWithLink();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  async function onSignIn() {
    setError(null);
    try {
      await signIn.mutateAsync({ token });
      await navigate('/');
    } catch (err) {
      setError(errorMessage(err, LINK_INVALID_MESSAGE));
    }
  }

  if (token && preview.isPending) return <PageSpinner label="Checking your link..." />;
  const invalid = !token || preview.isError;
  return (
    <AuthShell title="Sign in to DHR" subtitle="One press signs you in with the link from your email.">
      {invalid ? (
        <div className="space-y-4">
          <MessageBox kind="error">{preview.isError ? errorMessage(preview.error, LINK_INVALID_MESSAGE) : LINK_INVALID_MESSAGE}</MessageBox>
          <ButtonLink to="/simple-auth" className="w-full">
            Send a new link
          </ButtonLink>
        </div>
      ) : (
        <div className="space-y-5">
          {error && <MessageBox kind="error">{error}</MessageBox>}
          <p className="text-sm leading-relaxed text-mist-300">
            You are about to sign in as <span className="font-semibold break-all text-white">{preview.data?.email}</span>. If that is not your email, close this
            page.
          </p>
          <Button size="lg" className="w-full" onClick={() => void onSignIn()} disabled={signIn.isPending}>
            <LogIn className="size-4" aria-hidden /> {signIn.isPending ? 'Signing in...' : `Sign in as ${preview.data?.email ?? ''}`}
          </Button>
        </div>
      )}
    </AuthShell>
  );
}
