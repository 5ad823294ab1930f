import { BadgeCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { AUTH_MESSAGES } from '../../../../contracts/auth';
import type { Tier } from '../../../../contracts/tiers';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ApiError, errorMessage } from '../../../lib/http';
import { useAssignTier } from '../api/assign-tier';
import { daysFromInput } from '../lib/money';
import { SelectField, TextField } from '../../../components/ui/form-controls';
import { ExpiryDaysField } from './member-fields';
import { TIER_OPTIONS } from './options';
import type { FormFeedback } from './create-user-form';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';

/** After a 401 the page goes to sign-in 1 s later. */
export const UNAUTHORIZED_REDIRECT_MS = 1000;
/** The spec's client went to /api/login, which this server does not have; /auth is the sign-in page. */
export const SIGN_IN_PATH = '/auth';

const EMPTY = { email: '', tier: '' as Tier | '', expiryDays: '', username: '' };

/** Quick assign: give an email a tier (creating the member if needed). */
export function QuickAssignForm({ onSuccess, onError }: FormFeedback) {
  const [form, setForm] = useState(EMPTY);
  const assign = useAssignTier();
  const navigate = useNavigate();
  const redirect = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) => setForm((f) => ({ ...f, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const email = form.email.trim();
    if (!email || !form.tier) return onError(AUTH_MESSAGES.quickAssignRequired);
    const username = form.username.trim();
    assign.mutate(
      { email, tier: form.tier, expiryDays: daysFromInput(form.expiryDays), ...(username ? { username } : {}) },
      {
        onSuccess: () => {
          setForm(EMPTY);
          onSuccess(AUTH_MESSAGES.tierAssigned);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 401) {
            onError('Unauthorized - redirecting to login...');
            redirect.current = setTimeout(() => void navigate(SIGN_IN_PATH), UNAUTHORIZED_REDIRECT_MS);
            return;
          }
          onError(`Error: ${errorMessage(err, 'Failed to assign tier')}`);
        },
      },
    );
  }

  return (
    <Card className="flex min-w-0 flex-col gap-5">
      <header className="flex items-center gap-3">
        <BadgeCheck className="size-5 text-aqua-300" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-white">Quick Assign Tier</h2>
      </header>
      <p className="-mt-2 text-sm text-mist-400">
        Gives an email a tier right away, as an admin grant that syncs never overwrite. A new email gets an account.
      </p>
      <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Quick assign tier">
        <TextField
          label="Email *"
          type="email"
          autoComplete="off"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
          maxLength={EMAIL_MAX_LENGTH}
          className="sm:col-span-2"
        />
        <SelectField
          label="Tier *"
          options={[{ value: '', label: 'Select tier' }, ...TIER_OPTIONS]}
          value={form.tier}
          onChange={(e) => set('tier', e.target.value as Tier | '')}
        />
        <ExpiryDaysField value={form.expiryDays} onChange={(v) => set('expiryDays', v)} />
        <TextField
          label="Username (optional)"
          autoComplete="off"
          value={form.username}
          onChange={(e) => set('username', e.target.value)}
          maxLength={100}
          className="sm:col-span-2"
        />
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary" disabled={assign.isPending} className="w-full sm:w-auto">
            {assign.isPending ? 'Assigning...' : 'Assign Tier'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
