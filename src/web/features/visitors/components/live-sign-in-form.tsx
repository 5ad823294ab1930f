import { LogIn, ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ApiError } from '../../../lib/http';
import { TextField } from '../../../components/ui/form-controls';
import { useAdminSignIn } from '../api/admin-sign-in';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** The monitor's own sign-in: email and password (no email-only admin sign-in, no prefilled address). */
export function LiveSignInForm({ notice }: { notice?: string | undefined }) {
  const signIn = useAdminSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    signIn.mutate({ email, password });
  }

  const error = signIn.error
    ? signIn.error instanceof ApiError
      ? (signIn.error.serverMessage ?? 'Login failed')
      : 'Network error - please try again'
    : notice;

  return (
    <Card className="mx-auto w-full max-w-md" padding="lg">
      <div className="mb-6 flex items-center gap-3">
        <span className="grid size-11 place-items-center rounded-2xl bg-gradient-to-br from-deep-600/40 to-aqua-500/25 text-aqua-300 ring-1 ring-white/10">
          <ShieldCheck className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h2 className="font-display text-xl font-bold text-white">Admin sign-in</h2>
          <p className="text-sm text-mist-400">The live monitor is for DHR administrators.</p>
        </div>
      </div>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        {error && (
          <p role="alert" className="rounded-xl border border-rose-500/40 bg-rose-500/10 px-4 py-3 text-sm text-rose-100">
            {error}
          </p>
        )}
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          maxLength={EMAIL_MAX_LENGTH}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={200}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" size="lg" disabled={signIn.isPending || !email || !password}>
          <LogIn className="size-4" aria-hidden="true" />
          {signIn.isPending ? 'Authenticating...' : 'Sign In'}
        </Button>
      </form>
    </Card>
  );
}
