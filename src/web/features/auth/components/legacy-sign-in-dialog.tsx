import { LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ApiError } from '../../../lib/http';
import { useLogin } from '../api/login';
import { TextField } from '../../../components/ui/form-controls';
import { MessageBox } from './message-box';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** The legacy sign-in modal: email and password, the sign-in messages. */
export function LegacySignInDialog({ open, onOpenChange, onSignedIn }: { open: boolean; onOpenChange: (open: boolean) => void; onSignedIn?: () => void }) {
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !password) return setError('Please enter your email and password.');
    try {
      await login.mutateAsync({ email, password });
      setPassword('');
      onOpenChange(false);
      onSignedIn?.();
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? 'Invalid credentials. Please check your email and password.'
          : err instanceof ApiError && err.status === 429 && err.serverMessage
            ? err.serverMessage
            : 'Login failed. Please try again.',
      );
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Sign In to DHR"
      description="Sign in with your subscription email to access premium content"
      size="sm"
    >
      <form onSubmit={(e) => void onSubmit(e)} className="space-y-4" noValidate>
        {error && <MessageBox kind="error">{error}</MessageBox>}
        <TextField
          size="lg"
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          maxLength={EMAIL_MAX_LENGTH}
        />
        <TextField
          size="lg"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          maxLength={200}
        />
        <Button type="submit" className="w-full" disabled={!email || !password || login.isPending}>
          <LogIn className="size-4" aria-hidden /> {login.isPending ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </Dialog>
  );
}
