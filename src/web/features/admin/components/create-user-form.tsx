import { UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { INVALID_EMAIL, REQUIRED_EMAIL_USERNAME } from '../../../../contracts/admin';
import type { SubscriptionSource, SubscriptionStatus, Tier } from '../../../../contracts/tiers';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/http';
import { useCreateUser } from '../api/create-user';
import { daysFromInput, eurosFromInput } from '../lib/money';
import { CheckboxField, TextField } from '../../../components/ui/form-controls';
import { ExpiryDaysField, SubscriptionFields } from './member-fields';
import { FORM_STATUS_OPTIONS } from './options';
import { EMAIL_MAX_LENGTH, isEmailAddress } from '../../../../contracts/email';

const EMPTY = {
  email: '',
  username: '',
  firstName: '',
  lastName: '',
  subscriptionTier: 'free' as Tier,
  subscriptionStatus: 'active' as SubscriptionStatus,
  subscriptionSource: 'admin' as SubscriptionSource,
  expiryDays: '',
  pledgeAmount: '',
  isAdmin: false,
};

export interface FormFeedback {
  onSuccess: (text: string) => void;
  onError: (text: string) => void;
}

/** Create-user form: email and username required, amount in euros, expiry in days (0 = none). */
export function CreateUserForm({ onSuccess, onError }: FormFeedback) {
  const [form, setForm] = useState(EMPTY);
  const create = useCreateUser();
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) => setForm((f) => ({ ...f, [key]: value }));
  const missing = !form.email.trim() || !form.username.trim();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (missing) return onError(REQUIRED_EMAIL_USERNAME);
    if (!isEmailAddress(form.email.trim())) return onError(INVALID_EMAIL);
    create.mutate(
      {
        email: form.email.trim(),
        username: form.username.trim(),
        firstName: form.firstName.trim() || null,
        lastName: form.lastName.trim() || null,
        subscriptionTier: form.subscriptionTier,
        subscriptionStatus: form.subscriptionStatus,
        subscriptionSource: form.subscriptionSource,
        expiryDays: daysFromInput(form.expiryDays),
        pledgeAmount: eurosFromInput(form.pledgeAmount),
        isAdmin: form.isAdmin,
      },
      {
        onSuccess: () => {
          setForm(EMPTY);
          onSuccess('User created successfully');
        },
        onError: (err) => onError(`Error: ${errorMessage(err, 'Failed to create user')}`),
      },
    );
  }

  return (
    <Card className="flex min-w-0 flex-col gap-5">
      <header className="flex items-center gap-3">
        <UserPlus className="size-5 text-deep-300" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-white">Create User</h2>
      </header>
      <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-label="Create user">
        <TextField
          label="Email *"
          type="email"
          autoComplete="off"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
          maxLength={EMAIL_MAX_LENGTH}
        />
        <TextField label="Username *" autoComplete="off" value={form.username} onChange={(e) => set('username', e.target.value)} maxLength={100} />
        <TextField label="First name" autoComplete="off" value={form.firstName} onChange={(e) => set('firstName', e.target.value)} maxLength={100} />
        <TextField label="Last name" autoComplete="off" value={form.lastName} onChange={(e) => set('lastName', e.target.value)} maxLength={100} />
        <SubscriptionFields values={form} statusOptions={FORM_STATUS_OPTIONS} onChange={(patch) => setForm((f) => ({ ...f, ...patch }))} />
        <ExpiryDaysField value={form.expiryDays} onChange={(v) => set('expiryDays', v)} />
        <TextField
          label="Amount (€ per month)"
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          placeholder="0.00"
          value={form.pledgeAmount}
          onChange={(e) => set('pledgeAmount', e.target.value)}
        />
        <CheckboxField label="Administrator" checked={form.isAdmin} onChange={(e) => set('isAdmin', e.target.checked)} className="sm:self-end" />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={missing || create.isPending} className="w-full sm:w-auto">
            {create.isPending ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
