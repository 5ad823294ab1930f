import { KeyRound, MailCheck, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useSimpleLogin } from '../api/simple-login';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { LegacySignInDialog } from '../components/legacy-sign-in-dialog';
import { MessageBox } from '../components/message-box';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** /simple-auth: email-only sign-in by a one-time link. */
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
      subtitle="Enter the email you subscribe with. We will email you a link that signs you in."
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
