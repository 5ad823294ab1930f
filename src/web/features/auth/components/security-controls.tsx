import { KeyRound, MonitorSmartphone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from '../../../../contracts/auth';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/form-controls';
import { errorMessage } from '../../../lib/http';
import { useChangePassword } from '../api/change-password';
import { useLogoutEverywhere } from '../api/logout-everywhere';
import { MessageBox } from './message-box';
import { NewPasswordFields } from './new-password-fields';

/** The member's sign-in on /auth: change the password (or set one), sign out on every other device. */
export function SecurityControls({ hasPassword }: { hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  const everywhere = useLogoutEverywhere();
  return (
    <section aria-labelledby="security-heading" className="space-y-3 border-t border-white/10 pt-6">
      <h2 id="security-heading" className="text-xs font-semibold tracking-[0.2em] text-mist-400 uppercase">
        Sign-in and devices
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {hasPassword ? (
          <Button variant="secondary" className="w-full sm:w-auto" onClick={() => setOpen(true)}>
            <KeyRound className="size-4" aria-hidden /> Change password
          </Button>
        ) : (
          <Link to="/set-password" className="text-sm text-aqua-300 hover:text-aqua-400">
            Set a password
          </Link>
        )}
        <Button variant="secondary" className="w-full sm:w-auto" onClick={() => everywhere.mutate()} disabled={everywhere.isPending}>
          <MonitorSmartphone className="size-4" aria-hidden /> {everywhere.isPending ? 'Signing out...' : 'Sign out everywhere else'}
        </Button>
      </div>
      <div aria-live="polite">
        {everywhere.isSuccess && <MessageBox kind="success">{everywhere.data.message}</MessageBox>}
        {everywhere.isError && <MessageBox kind="error">{errorMessage(everywhere.error, 'The other devices could not be signed out. Try again.')}</MessageBox>}
      </div>
      {open && <ChangePasswordDialog onClose={() => setOpen(false)} />}
    </section>
  );
}

function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (password !== confirm) return setError(AUTH_MESSAGES.passwordsDoNotMatch);
    if (password.length < PASSWORD_MIN) return setError(AUTH_MESSAGES.passwordTooShort);
    change.mutate({ currentPassword: current, newPassword: password });
  }
  const shown = error ?? (change.isError ? errorMessage(change.error, 'The password could not be changed.') : null);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title="Change password" description="Every other device you are signed in on is signed out.">
      {change.isSuccess ? (
        <MessageBox kind="success">{change.data.message}</MessageBox>
      ) : (
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          {shown && <MessageBox kind="error">{shown}</MessageBox>}
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            maxLength={PASSWORD_MAX}
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
          <Button type="submit" className="w-full" disabled={change.isPending || !current || !password || !confirm}>
            {change.isPending ? 'Saving...' : 'Change password'}
          </Button>
        </form>
      )}
    </Dialog>
  );
}
