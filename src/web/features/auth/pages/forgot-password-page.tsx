import { MailCheck, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useForgotPassword } from '../api/forgot-password';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from '../components/message-box';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** /forgot-password: mails a one-time reset link. */
export default function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      setSent((await forgot.mutateAsync({ email })).message);
    } catch (err) {
      setError(errorMessage(err, 'We could not send the reset link. Please try again.'));
    }
  }

  return (
    <AuthShell
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to choose a new one."
      footer={
        <p>
          <Link to="/auth" className="text-aqua-300 hover:text-aqua-400">
            Remembered it? Sign in
          </Link>
        </p>
      }
    >
      {sent ? (
        <div className="space-y-4 text-center">
          <div className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-aqua-500/15 text-aqua-300">
            <MailCheck className="size-7" aria-hidden />
          </div>
          <h2 className="text-xl font-semibold text-white">Check your email</h2>
          <p className="text-sm leading-relaxed text-mist-300">{sent} The link works once, for 30 minutes.</p>
        </div>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} className="space-y-4" noValidate>
          {error && <MessageBox kind="error">{error}</MessageBox>}
          <TextField
            size="lg"
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={EMAIL_MAX_LENGTH}
          />
          <Button type="submit" size="lg" className="w-full" disabled={!email.trim() || forgot.isPending}>
            <Send className="size-4" aria-hidden /> {forgot.isPending ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
