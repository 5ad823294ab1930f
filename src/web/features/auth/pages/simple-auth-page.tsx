import { KeyRound, LogIn, MailCheck, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useSignInWithCode } from '../api/code-login';
import { useSimpleLogin } from '../api/simple-login';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { LegacySignInDialog } from '../components/legacy-sign-in-dialog';
import { MessageBox } from '../components/message-box';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** /simple-auth: email-only sign-in by a one-time link, or by the 6-digit code of the same mail. */
export default function SimpleAuthPage() {
  const navigate = useNavigate();
  const send = useSimpleLogin();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [passwordOpen, setPasswordOpen] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await send.mutateAsync({ email });
      setSentTo(email.trim());
    } catch (err) {
      setError(errorMessage(err, 'We could not send the sign-in link. Please try again.'));
    }
  }

  return (
    <AuthShell
      title="Sign in to DHR"
      subtitle="Enter the email you subscribe with. We will email you a link and a code that sign you in."
      footer={
        <>
          <p>
            <button type="button" onClick={() => setPasswordOpen(true)} className="text-aqua-300 hover:text-aqua-400">
              <KeyRound className="mr-1 inline size-4 align-[-2px]" aria-hidden />
              Sign in with a password
            </button>
          </p>
          <p>
            No account yet?{' '}
            <Link to="/auth" className="text-aqua-300 hover:text-aqua-400">
              Create one
            </Link>
          </p>
        </>
      }
    >
      {sentTo ? (
        <div className="space-y-5 text-center">
          <div className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-aqua-500/15 text-aqua-300">
            <MailCheck className="size-7" aria-hidden />
          </div>
          <h2 className="text-xl font-semibold text-white">Check your email</h2>
          <p className="text-sm leading-relaxed text-mist-300">
            If <span className="font-semibold text-white">{sentTo}</span> belongs to a member or subscriber, a sign-in link is on its way. It works once, for 15
            minutes: open it and press the button to sign in.
          </p>
          <CodeSignIn email={sentTo} onSignedIn={() => void navigate('/')} />
          <Button variant="secondary" onClick={() => setSentTo(null)}>
            Use another email
          </Button>
        </div>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} className="space-y-4" noValidate>
          {error && <MessageBox kind="error">{error}</MessageBox>}
          <TextField
            size="lg"
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={EMAIL_MAX_LENGTH}
          />
          <Button type="submit" size="lg" className="w-full" disabled={!email.trim() || send.isPending}>
            <Send className="size-4" aria-hidden /> {send.isPending ? 'Sending...' : 'Email me a sign-in link'}
          </Button>
        </form>
      )}
      <LegacySignInDialog open={passwordOpen} onOpenChange={setPasswordOpen} onSignedIn={() => void navigate('/')} />
    </AuthShell>
  );
}

/** Reading mail on another device: the code of the same mail signs in here. */
function CodeSignIn({ email, onSignedIn }: { email: string; onSignedIn: () => void }) {
  const signIn = useSignInWithCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await signIn.mutateAsync({ email, code });
      onSignedIn();
    } catch (err) {
      setError(errorMessage(err, 'We could not sign you in with that code. Please try again.'));
    }
  }
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="space-y-3 border-t border-white/10 pt-5 text-left" noValidate aria-label="Sign in with the code">
      <p className="text-sm text-mist-300">Reading your email on another device? Enter the 6-digit code from the same email.</p>
      {error && <MessageBox kind="error">{error}</MessageBox>}
      <TextField
        label="6-digit code from the email"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\d{6}"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
      />
      <Button type="submit" className="w-full" disabled={code.length !== 6 || signIn.isPending}>
        <LogIn className="size-4" aria-hidden /> {signIn.isPending ? 'Signing in...' : 'Sign in with the code'}
      </Button>
    </form>
  );
}
