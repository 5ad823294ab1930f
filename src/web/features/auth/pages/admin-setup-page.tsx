import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MIN } from '../../../../contracts/auth';
import { Button, ButtonLink } from '../../../components/ui/button';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/http';
import { useAdminSetup } from '../api/admin-setup';
import { useSetupNeeded } from '../api/get-setup-needed';
import { AuthShell } from '../components/auth-shell';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from '../components/message-box';
import { NewPasswordFields } from '../components/new-password-fields';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** /admin-setup: creates the first admin while none exists. */
export default function AdminSetupPage() {
  const setupNeeded = useSetupNeeded();
  const setup = useAdminSetup();
  const navigate = useNavigate();
  const [setupToken, setSetupToken] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!setupToken.trim()) return setError(AUTH_MESSAGES.setupTokenRequired);
    if (!username.trim()) return setError(AUTH_MESSAGES.usernameRequired);
    if (password !== confirm) return setError(AUTH_MESSAGES.passwordsDoNotMatch);
    if (password.length < PASSWORD_MIN) return setError(AUTH_MESSAGES.passwordTooShort);
    try {
      await setup.mutateAsync({ setupToken, email, username, password });
      await navigate('/admin-dashboard');
    } catch (err) {
      setError(errorMessage(err, 'Admin setup failed'));
    }
  }

  if (setupNeeded.isPending) return <PageSpinner label="Checking setup..." />;
  if (setupNeeded.data && !setupNeeded.data.setupNeeded && !setup.isSuccess) {
    return (
      <AuthShell title="Admin setup" subtitle="This radio already has an admin.">
        <div className="space-y-4">
          <MessageBox kind="info">{AUTH_MESSAGES.setupNotNeeded}</MessageBox>
          <ButtonLink to="/auth" className="w-full">
            Sign in
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Set up your radio" subtitle="Create the first admin account. This page closes once an admin exists.">
      <form onSubmit={(e) => void onSubmit(e)} className="space-y-4" noValidate>
        {error && <MessageBox kind="error">{error}</MessageBox>}
        <TextField
          size="lg"
          label="Setup token"
          autoComplete="off"
          spellCheck={false}
          value={setupToken}
          onChange={(e) => setSetupToken(e.target.value)}
          maxLength={200}
        />
        <p className="-mt-2 text-xs text-mist-400">ADMIN_SETUP_TOKEN, or the one-time token the server printed in its log when it started.</p>
        <TextField
          size="lg"
          label="Admin email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          maxLength={EMAIL_MAX_LENGTH}
        />
        <TextField size="lg" label="Username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} maxLength={50} />
        <NewPasswordFields label="Password" password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
        <Button type="submit" size="lg" className="w-full" disabled={!setupToken || !email || !username || !password || !confirm || setup.isPending}>
          <ShieldCheck className="size-4" aria-hidden /> {setup.isPending ? 'Creating...' : 'Create admin account'}
        </Button>
      </form>
    </AuthShell>
  );
}
