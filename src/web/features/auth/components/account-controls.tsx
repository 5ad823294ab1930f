import { Download, Mail, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ACCOUNT_MESSAGES } from '../../../../contracts/account-values';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/form-controls';
import { errorMessage } from '../../../lib/http';
import { useDeleteAccount } from '../api/delete-account';
import { useRequestDeleteLink } from '../api/request-delete-link';
import { useRequestEmailChange } from '../api/request-email-change';
import { MessageBox } from './message-box';

/** The member's own data and account on /auth: download it, change the email, delete the account. */
export function AccountControls() {
  const [dialog, setDialog] = useState<'email' | 'delete' | null>(null);
  return (
    <section aria-labelledby="my-data-heading" className="space-y-3 border-t border-white/10 pt-6">
      <h2 id="my-data-heading" className="text-xs font-semibold tracking-[0.2em] text-mist-400 uppercase">
        My data
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {/* A plain download: the answer is an attachment, so the browser saves it as a file. */}
        <a href="/api/me/export" download className={buttonClasses('secondary', 'md', 'w-full sm:w-auto')}>
          <Download className="size-4" aria-hidden /> Download my data
        </a>
        <Button variant="secondary" className="w-full sm:w-auto" onClick={() => setDialog('email')}>
          <Mail className="size-4" aria-hidden /> Change email
        </Button>
        <Button variant="danger" className="w-full sm:w-auto" onClick={() => setDialog('delete')}>
          <Trash2 className="size-4" aria-hidden /> Delete my account
        </Button>
      </div>
      <p className="text-xs text-mist-400">
        What DHR keeps and for how long:{' '}
        <Link to="/privacy" className="underline underline-offset-4 hover:text-white">
          privacy
        </Link>
        .
      </p>
      {dialog === 'email' && <ChangeEmailDialog onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteAccountDialog onClose={() => setDialog(null)} />}
    </section>
  );
}

function ChangeEmailDialog({ onClose }: { onClose: () => void }) {
  const change = useRequestEmailChange();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    change.mutate(password ? { newEmail, password } : { newEmail });
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Change email" description="We send a confirmation link to the new address.">
      {change.isSuccess ? (
        <MessageBox kind="success">{change.data.message}</MessageBox>
      ) : (
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          {change.isError && <MessageBox kind="error">{errorMessage(change.error, 'The email could not be changed.')}</MessageBox>}
          <TextField
            label="New email"
            type="email"
            autoComplete="email"
            maxLength={EMAIL_MAX_LENGTH}
            value={newEmail}
            onChange={(e) => setNewEmail(e.target.value)}
          />
          <TextField
            label="Current password"
            hint="Leave empty if your account has no password."
            type="password"
            autoComplete="current-password"
            maxLength={200}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Button type="submit" className="w-full" disabled={change.isPending || !newEmail}>
            {change.isPending ? 'Sending...' : 'Send the confirmation link'}
          </Button>
        </form>
      )}
    </Dialog>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const remove = useDeleteAccount();
  const link = useRequestDeleteLink();
  const [password, setPassword] = useState('');
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    remove.mutate({ password }, { onSuccess: () => window.location.assign('/') });
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Delete my account" description={ACCOUNT_MESSAGES.deleteEndsAccess}>
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <p className="text-sm text-mist-300">
          Your account, profile, follows and sessions are removed. Your comments and forum threads stay, shown as written by a deleted member.
        </p>
        {remove.isError && <MessageBox kind="error">{errorMessage(remove.error, ACCOUNT_MESSAGES.wrongPassword)}</MessageBox>}
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          maxLength={200}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" variant="danger" className="w-full" disabled={remove.isPending || !password}>
          <Trash2 className="size-4" aria-hidden /> {remove.isPending ? 'Deleting...' : 'Delete my account now'}
        </Button>
      </form>
      <div className="mt-4 space-y-2 border-t border-white/10 pt-4">
        <p className="text-sm text-mist-300">No password? We can email you a link that confirms it instead.</p>
        {link.isSuccess ? (
          <MessageBox kind="success">{link.data.message}</MessageBox>
        ) : (
          <Button variant="secondary" className="w-full" onClick={() => link.mutate()} disabled={link.isPending}>
            <Mail className="size-4" aria-hidden /> Email me a confirmation link
          </Button>
        )}
        {link.isError && <MessageBox kind="error">{errorMessage(link.error, 'The link could not be sent. Try again later.')}</MessageBox>}
      </div>
    </Dialog>
  );
}
