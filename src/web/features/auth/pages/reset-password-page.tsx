import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MIN } from '../../../../contracts/auth';
import { Button, ButtonLink } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useResetPassword } from '../api/reset-password';
import { AuthShell } from '../components/auth-shell';
import { MessageBox } from '../components/message-box';
import { NewPasswordFields } from '../components/new-password-fields';
import { useFragmentToken } from '../lib/fragment-token';

/** /reset-password#token=...: the page the reset email links to (the token stays out of every server log). */
export default function ResetPasswordPage() {
  const token = useFragmentToken();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (password !== confirm) return setError(AUTH_MESSAGES.passwordsDoNotMatch);
    if (password.length < PASSWORD_MIN) return setError(AUTH_MESSAGES.passwordTooShort);
    try {
      setDone((await reset.mutateAsync({ token, password })).message);
    } catch (err) {
      setError(errorMessage(err, 'Password reset failed'));
    }
  }

  return (
    <AuthShell title="Choose a new password" subtitle="Pick a password of at least 6 characters.">
      {!token ? (
        <div className="space-y-4">
          <MessageBox kind="error">{AUTH_MESSAGES.resetLinkInvalid}</MessageBox>
          <ButtonLink to="/forgot-password" className="w-full">
            Send a new link
          </ButtonLink>
        </div>
      ) : done ? (
        <div className="space-y-4">
          <MessageBox kind="success">{done}</MessageBox>
          <ButtonLink to="/auth" className="w-full">
            Sign in
          </ButtonLink>
        </div>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} className="space-y-4" noValidate>
          {error && (
            <MessageBox kind="error">
              {error}
              {error === AUTH_MESSAGES.resetLinkInvalid && (
                <>
                  {' '}
                  <Link to="/forgot-password" className="font-semibold underline">
                    Send a new link
                  </Link>
                </>
              )}
            </MessageBox>
          )}
          <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
          <Button type="submit" size="lg" className="w-full" disabled={!password || !confirm || reset.isPending}>
            <KeyRound className="size-4" aria-hidden /> {reset.isPending ? 'Saving...' : 'Save new password'}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
