import { LogIn, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MIN } from '../../../../contracts/auth';
import { Button } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { errorMessage } from '../../../lib/http';
import { usePermissions } from '../api/get-permissions';
import { useSetupNeeded } from '../api/get-setup-needed';
import { useLogin } from '../api/login';
import { useRegister } from '../api/register';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from '../components/message-box';
import { SignedInCard } from '../components/signed-in-card';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

type Mode = 'signin' | 'register';
type Fields = { email: string; password: string; confirm: string; username: string };

/** /auth: sign in or create an account. */
export default function AuthPage() {
  // Permissions answer anonymous visitors with 200, so the page logs no 401.
  const me = usePermissions();
  const setup = useSetupNeeded();
  const navigate = useNavigate();
  const login = useLogin();
  const register = useRegister();
  const [mode, setMode] = useState<Mode>('signin');
  const [fields, setFields] = useState<Fields>({ email: '', password: '', confirm: '', username: '' });
  const { email, password, confirm, username } = fields;
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const busy = login.isPending || register.isPending;
  const disabled = !email || !password || (mode === 'register' && (!username || !confirm)) || busy;

  const switchMode = (next: Mode) => {
    setMode(next);
    setError(null);
    setNotice(null);
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    if (mode === 'register') {
      if (!username.trim()) return setError(AUTH_MESSAGES.usernameRequired);
      if (password !== confirm) return setError(AUTH_MESSAGES.passwordsDoNotMatch);
      if (password.length < PASSWORD_MIN) return setError(AUTH_MESSAGES.passwordTooShort);
      try {
        await register.mutateAsync({ email, password, username });
        setMode('signin');
        setFields((f) => ({ ...f, password: '', confirm: '' }));
        setNotice(AUTH_MESSAGES.registrationSuccess);
      } catch (err) {
        setError(errorMessage(err, AUTH_MESSAGES.registrationFailed));
      }
      return;
    }
    try {
      await login.mutateAsync({ email, password });
      await navigate('/');
    } catch (err) {
      setError(errorMessage(err, AUTH_MESSAGES.loginFailed));
    }
  }

  if (me.isPending) return <PageSpinner label="Checking your session..." />;
  if (me.data?.authenticated) {
    return (
      <AuthShell title="Your account" subtitle="You are signed in to Deep House Radio.">
        <SignedInCard me={me.data} />
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={mode === 'signin' ? 'Welcome back' : 'Join Deep House Radio'}
      subtitle={mode === 'signin' ? 'Sign in with the email you use for your subscription.' : 'Create a free account, then subscribe for the premium channels.'}
      footer={<AuthLinks setupNeeded={setup.data?.setupNeeded === true} />}
    >
      <ModeTabs mode={mode} onMode={switchMode} />
      <form onSubmit={(e) => void onSubmit(e)} className="space-y-4" noValidate>
        {notice && <MessageBox kind="success">{notice}</MessageBox>}
        {error && <MessageBox kind="error">{error}</MessageBox>}
        <CredentialFields mode={mode} fields={fields} onChange={(key, value) => setFields((f) => ({ ...f, [key]: value }))} />
        <Button type="submit" size="lg" className="w-full" disabled={disabled}>
          {mode === 'signin' ? <LogIn className="size-4" aria-hidden /> : <UserPlus className="size-4" aria-hidden />}
          {busy ? 'Please wait...' : mode === 'signin' ? 'Sign In' : 'Create Account'}
        </Button>
      </form>
    </AuthShell>
  );
}

/** Under the form: password help, the sign-in link, the first admin's set-up while none exists, home. */
function AuthLinks({ setupNeeded }: { setupNeeded: boolean }) {
  return (
    <>
      <p>
        <Link to="/forgot-password" className="text-aqua-300 hover:text-aqua-400">
          Forgot your password?
        </Link>
      </p>
      <p>
        <Link to="/set-password" className="text-aqua-300 hover:text-aqua-400">
          Member without a password? Set one
        </Link>
      </p>
      <p>
        <Link to="/simple-auth" className="text-mist-300 hover:text-white">
          Email me a sign-in link instead
        </Link>
      </p>
      {setupNeeded && (
        <p>
          <Link to="/admin-setup" className="text-deep-300 hover:text-deep-400">
            First time here? Set up the admin account
          </Link>
        </p>
      )}
      <p>
        <Link to="/" className="text-mist-400 hover:text-white">
          Return to home
        </Link>
      </p>
    </>
  );
}

function ModeTabs({ mode, onMode }: { mode: Mode; onMode: (mode: Mode) => void }) {
  return (
    <div role="tablist" aria-label="Sign in or create an account" className="mb-6 grid grid-cols-2 rounded-full bg-night-900/80 p-1 ring-1 ring-white/10">
      {(['signin', 'register'] as const).map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          aria-selected={mode === m}
          onClick={() => onMode(m)}
          className={cn(
            'h-10 rounded-full text-sm font-semibold transition',
            mode === m ? 'bg-gradient-to-r from-deep-600 to-aqua-500 text-white shadow' : 'text-mist-300 hover:text-white',
          )}
        >
          {m === 'signin' ? 'Sign In' : 'Create Account'}
        </button>
      ))}
    </div>
  );
}

/** Email and password; creating an account also asks for a username and the password again. */
function CredentialFields({ mode, fields, onChange }: { mode: Mode; fields: Fields; onChange: (key: keyof Fields, value: string) => void }) {
  return (
    <>
      {mode === 'register' && (
        <TextField
          size="lg"
          label="Username"
          name="username"
          autoComplete="username"
          value={fields.username}
          onChange={(e) => onChange('username', e.target.value)}
          maxLength={50}
        />
      )}
      <TextField
        size="lg"
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={fields.email}
        onChange={(e) => onChange('email', e.target.value)}
        maxLength={EMAIL_MAX_LENGTH}
      />
      <TextField
        size="lg"
        label="Password"
        name="password"
        type="password"
        autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
        value={fields.password}
        onChange={(e) => onChange('password', e.target.value)}
        maxLength={200}
      />
      {mode === 'register' && (
        <TextField
          size="lg"
          label="Confirm password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={fields.confirm}
          onChange={(e) => onChange('confirm', e.target.value)}
          maxLength={200}
        />
      )}
    </>
  );
}
