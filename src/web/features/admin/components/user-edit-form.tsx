import { type FormEvent, useState } from 'react';
import { INVALID_EMAIL, REQUIRED_EMAIL_USERNAME, type AdminUser } from '../../../../contracts/admin';
import { Button } from '../../../components/ui/button';
import { dublinDay } from '../../../lib/dates';
import { errorMessage } from '../../../lib/http';
import { useRevokeSessions } from '../api/revoke-sessions';
import { useUpdateUser } from '../api/update-user';
import { centsFromInput, centsToEurosInput } from '../lib/money';
import type { FormFeedback } from './create-user-form';
import { CheckboxField, TextField } from '../../../components/ui/form-controls';
import { MemberHistory } from './member-history';
import { MemberPlatformRecords } from './member-platform-records';
import { MemberStreamConnections } from './member-stream-connections';
import { SubscriptionFields } from './member-fields';
import { ALL_STATUS_OPTIONS } from './options';
import { EMAIL_MAX_LENGTH, isEmailAddress } from '../../../../contracts/email';

function toForm(u: AdminUser) {
  return {
    email: u.email,
    username: u.username,
    firstName: u.firstName ?? '',
    lastName: u.lastName ?? '',
    subscriptionTier: u.subscriptionTier,
    subscriptionStatus: u.subscriptionStatus,
    subscriptionSource: u.subscriptionSource,
    /** The Dublin calendar day of the stored expiry, for the date picker. */
    expiryDay: dublinDay(u.subscriptionExpiry),
    amount: centsToEurosInput(u.pledgeAmount),
    isAdmin: u.isAdmin,
  };
}

/** Inline edit of one member: PUTs the whole user; amount shown in euros, sent as cents. */
export function UserEditForm({ user, onDone, onSuccess, onError }: { user: AdminUser; onDone: () => void } & FormFeedback) {
  const initial = toForm(user);
  const [form, setForm] = useState(initial);
  const update = useUpdateUser();
  const revoke = useRevokeSessions();
  const set = <K extends keyof typeof initial>(key: K, value: (typeof initial)[K]) => setForm((f) => ({ ...f, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.email.trim() || !form.username.trim()) return onError(REQUIRED_EMAIL_USERNAME);
    if (!isEmailAddress(form.email.trim())) return onError(INVALID_EMAIL);
    // An untouched date keeps the exact stored instant; a picked day is sent as YYYY-MM-DD.
    const subscriptionExpiry = form.expiryDay === initial.expiryDay ? user.subscriptionExpiry : form.expiryDay || null;
    update.mutate(
      {
        ...user,
        email: form.email.trim(),
        username: form.username.trim(),
        firstName: form.firstName.trim() || null,
        lastName: form.lastName.trim() || null,
        subscriptionTier: form.subscriptionTier,
        subscriptionStatus: form.subscriptionStatus,
        subscriptionSource: form.subscriptionSource,
        subscriptionExpiry,
        pledgeAmount: centsFromInput(form.amount),
        isAdmin: form.isAdmin,
      },
      {
        onSuccess: () => {
          onSuccess('User updated successfully');
          onDone();
        },
        onError: (err) => onError(`Error: ${errorMessage(err, 'Failed to update user')}`),
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Edit ${user.email}`}
      className="grid grid-cols-1 gap-4 rounded-2xl border border-deep-400/30 bg-deep-500/[0.06] p-4 sm:grid-cols-2 sm:p-5 lg:grid-cols-4"
    >
      <p className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1 sm:col-span-2 lg:col-span-4">
        <span className="text-sm font-semibold text-white">Editing {user.email}</span>
        <span className="truncate font-mono text-[0.7rem] text-mist-500">ID {user.id}</span>
      </p>
      <TextField
        label="Email"
        type="email"
        value={form.email}
        onChange={(e) => set('email', e.target.value)}
        maxLength={EMAIL_MAX_LENGTH}
        className="lg:col-span-2"
      />
      <TextField label="Username" value={form.username} onChange={(e) => set('username', e.target.value)} maxLength={100} />
      <TextField label="First name" value={form.firstName} onChange={(e) => set('firstName', e.target.value)} maxLength={100} />
      <TextField label="Last name" value={form.lastName} onChange={(e) => set('lastName', e.target.value)} maxLength={100} />
      <SubscriptionFields values={form} statusOptions={ALL_STATUS_OPTIONS} onChange={(patch) => setForm((f) => ({ ...f, ...patch }))} />
      <TextField label="Expiry date" type="date" value={form.expiryDay} onChange={(e) => set('expiryDay', e.target.value)} hint="Empty = no expiry" />
      <TextField
        label="Amount (€ per month)"
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        value={form.amount}
        onChange={(e) => set('amount', e.target.value)}
      />
      <CheckboxField label="Administrator" checked={form.isAdmin} onChange={(e) => set('isAdmin', e.target.checked)} className="lg:self-start lg:pt-6" />
      <div className="sm:col-span-2 lg:col-span-4">
        <MemberPlatformRecords userId={user.id} />
        <MemberHistory userId={user.id} />
        <MemberStreamConnections userId={user.id} />
      </div>
      <div className="flex flex-wrap gap-3 sm:col-span-2 lg:col-span-4">
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="sm:ml-auto"
          disabled={revoke.isPending}
          onClick={() =>
            revoke.mutate(user.id, {
              onSuccess: (r) => onSuccess(r.message),
              onError: (err) => onError(errorMessage(err, 'Failed to sign the member out')),
            })
          }
        >
          {revoke.isPending ? 'Signing out...' : 'Sign out everywhere'}
        </Button>
      </div>
    </form>
  );
}
