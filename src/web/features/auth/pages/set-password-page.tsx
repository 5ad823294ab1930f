import { ArrowLeft, KeyRound, MailCheck, ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MIN } from '../../../../contracts/auth';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/http';
import { useCheckUserExists } from '../api/check-user-exists';
import { useLogin } from '../api/login';
import { useRequestPasswordCode } from '../api/request-password-code';
import { useSetPassword } from '../api/set-password';
import { useVerifyPasswordCode } from '../api/verify-password-code';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from '../components/message-box';
import { NewPasswordFields } from '../components/new-password-fields';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

type Step = 'email' | 'code' | 'password' | 'done';

/** /set-password: members without a password prove their email with a code, then choose one. */
export default function SetPasswordPage() {
  const navigate = useNavigate();
  const check = useCheckUserExists();
  const requestCode = useRequestPasswordCode();
  const verify = useVerifyPasswordCode();
  const save = useSetPassword();
  const login = useLogin();
  const [signedIn, setSignedIn] = useState(false);
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // 2 s after success: home, signed in with the new password; if that sign-in failed, the password form.
  useEffect(() => {
    if (step !== 'done') return;
    const t = setTimeout(() => void navigate(signedIn ? '/' : '/auth'), 2000);
    return () => clearTimeout(t);
  }, [step, signedIn, navigate]);

  async function onEmail(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const found = await check.mutateAsync({ email });
      if (!found.exists) return setError(AUTH_MESSAGES.noAccount);
      if (found.hasPassword) return setError(AUTH_MESSAGES.alreadyHasPassword);
      const sent = await requestCode.mutateAsync({ email });
      setNotice(sent.message);
      setStep('code');
    } catch (err) {
      setError(errorMessage(err, AUTH_MESSAGES.emailVerificationFailed));
    }
  }

  async function onCode(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const ok = await verify.mutateAsync({ email, code });
      setNotice(ok.message);
      setStep('password');
    } catch (err) {
      setError(errorMessage(err, AUTH_MESSAGES.emailVerificationFailed));
    }
  }

  async function onPassword(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (password !== confirm) return setError(AUTH_MESSAGES.passwordsDoNotMatch);
    if (password.length < PASSWORD_MIN) return setError(AUTH_MESSAGES.passwordTooShort);
    try {
      const done = await save.mutateAsync({ email, code, password });
      setNotice(done.message);
      // The member just chose it: sign them in with it rather than send them to sign in again.
      setSignedIn(
        await login.mutateAsync({ email, password }).then(
          () => true,
          () => false,
        ),
      );
      setStep('done');
    } catch (err) {
      setError(errorMessage(err, AUTH_MESSAGES.passwordSetupFailed));
    }
  }

  const back = () => {
    setError(null);
    setNotice(null);
    setPassword('');
    setConfirm('');
    setStep(step === 'password' ? 'code' : 'email');
  };

  return (
    <AuthShell
      title="Set your password"
      subtitle="For members who joined through Patreon, Buy Me a Coffee or an admin and have no password yet."
      footer={
        <p>
          <Link to="/auth" className="text-aqua-300 hover:text-aqua-400">
            Already have a password? Sign in here
          </Link>
        </p>
      }
    >
      <StepsList step={step} />
      <div className="space-y-4">
        {error && <MessageBox kind="error">{error}</MessageBox>}
        {notice && !error && <MessageBox kind={step === 'code' ? 'info' : 'success'}>{notice}</MessageBox>}

        {step === 'email' && (
          <EmailForm email={email} onEmail={setEmail} pending={check.isPending || requestCode.isPending} onSubmit={(e) => void onEmail(e)} />
        )}

        {step === 'code' && <CodeForm code={code} onCode={setCode} pending={verify.isPending} onBack={back} onSubmit={(e) => void onCode(e)} />}

        {step === 'password' && (
          <form onSubmit={(e) => void onPassword(e)} className="space-y-4" noValidate>
            <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
            <div className="flex gap-3">
              <Button variant="secondary" onClick={back}>
                <ArrowLeft className="size-4" aria-hidden /> Back
              </Button>
              <Button type="submit" className="flex-1" disabled={!password || !confirm || save.isPending}>
                <KeyRound className="size-4" aria-hidden /> {save.isPending ? 'Saving...' : 'Set password'}
              </Button>
            </div>
          </form>
        )}
      </div>
    </AuthShell>
  );
}

/** Where the member is: proving the email, then choosing the password. */
function StepsList({ step }: { step: Step }) {
  return (
    <ol className="mb-6 flex items-center gap-3 text-xs font-semibold tracking-wide text-mist-400 uppercase" aria-label="Steps">
      <li className={step === 'email' || step === 'code' ? 'text-aqua-300' : ''}>1. Verify email</li>
      <li aria-hidden className="h-px flex-1 bg-white/10" />
      <li className={step === 'password' || step === 'done' ? 'text-aqua-300' : ''}>2. New password</li>
    </ol>
  );
}

/** Step 1: the member's email; a code is mailed when it has an account without a password. */
function EmailForm({
  email,
  onEmail,
  pending,
  onSubmit,
}: {
  email: string;
  onEmail: (email: string) => void;
  pending: boolean;
  onSubmit: (e: FormEvent) => void;
}) {
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <TextField
        size="lg"
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => onEmail(e.target.value)}
        maxLength={EMAIL_MAX_LENGTH}
      />
      <Button type="submit" size="lg" className="w-full" disabled={!email.trim() || pending}>
        <MailCheck className="size-4" aria-hidden /> {pending ? 'Checking...' : 'Send verification code'}
      </Button>
    </form>
  );
}

/** Step 1, continued: the mailed code proves the email. */
function CodeForm({
  code,
  onCode,
  pending,
  onBack,
  onSubmit,
}: {
  code: string;
  onCode: (code: string) => void;
  pending: boolean;
  onBack: () => void;
  onSubmit: (e: FormEvent) => void;
}) {
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <TextField
        size="lg"
        label="6-digit code from the email"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\d{6}"
        maxLength={6}
        value={code}
        onChange={(e) => onCode(e.target.value.replace(/\D/g, ''))}
      />
      <div className="flex gap-3">
        <Button variant="secondary" onClick={onBack}>
          <ArrowLeft className="size-4" aria-hidden /> Back
        </Button>
        <Button type="submit" className="flex-1" disabled={code.length !== 6 || pending}>
          <ShieldCheck className="size-4" aria-hidden /> {pending ? 'Checking...' : 'Verify email'}
        </Button>
      </div>
    </form>
  );
}
