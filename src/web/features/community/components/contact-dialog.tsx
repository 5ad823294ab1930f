import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { CONTACT_HONEYPOT_FIELD, CONTACT_MESSAGES, type ContactFieldErrors } from '../../../../contracts/community';
import { ApiError } from '../../../lib/http';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextAreaField, TextField } from '../../../components/ui/form-controls';
import { useSendContact } from '../api/send-contact';
import { notify } from '../../../components/ui/toasts';
import { EMAIL_MAX_LENGTH } from '../../../../contracts/email';
import type { Permissions } from '../../../../contracts/tier-policy';
import { usePermissions } from '../../auth';

/** The form, filled with a signed-in member's name and email (they may still change them). */
const blankForm = (me: Permissions | undefined) => ({
  name: me?.authenticated ? (me.firstName ?? me.username ?? '') : '',
  email: me?.authenticated ? (me.email ?? '') : '',
  subject: '',
  message: '',
  [CONTACT_HONEYPOT_FIELD]: '',
});

/** The contact form. */
export default function ContactDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { data: me } = usePermissions();
  const [form, setForm] = useState(() => blankForm(me));
  const [fieldErrors, setFieldErrors] = useState<ContactFieldErrors>({});
  const send = useSendContact();
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    // A corrected field drops its message.
    setFieldErrors((errs) => (k in errs ? { ...errs, [k]: undefined } : errs));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      name: form.name.trim(),
      email: form.email.trim(),
      subject: form.subject.trim(),
      message: form.message.trim(),
      [CONTACT_HONEYPOT_FIELD]: form[CONTACT_HONEYPOT_FIELD],
    };
    if (!body.name || !body.email || !body.message) {
      setFieldErrors({
        name: body.name ? undefined : CONTACT_MESSAGES.nameRequired,
        email: body.email ? undefined : CONTACT_MESSAGES.emailRequired,
        message: body.message ? undefined : CONTACT_MESSAGES.messageRequired,
      });
      notify(CONTACT_MESSAGES.required);
      return;
    }
    setFieldErrors({});
    send.mutate(body, {
      onSuccess: () => {
        notify(CONTACT_MESSAGES.sent);
        setForm(blankForm(me));
        onOpenChange(false);
      },
      onError: (err) => {
        // The server names the wrong fields (the email's form, a missing field): each shows by its field.
        if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
          setFieldErrors(err.fields);
          notify(err.serverMessage ?? CONTACT_MESSAGES.failed);
        } else notify(CONTACT_MESSAGES.failed);
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Contact Us"
      description="Questions, requests or feedback: the DHR team reads every message."
      size="md"
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name *" value={form.name} onChange={set('name')} autoComplete="name" maxLength={100} error={fieldErrors.name} />
          <TextField
            label="Email *"
            type="email"
            value={form.email}
            onChange={set('email')}
            autoComplete="email"
            maxLength={EMAIL_MAX_LENGTH}
            error={fieldErrors.email}
          />
        </div>
        <TextField label="Subject" value={form.subject} onChange={set('subject')} maxLength={200} />
        <TextAreaField label="Message *" rows={5} value={form.message} onChange={set('message')} maxLength={5000} error={fieldErrors.message} />
        {/* Left empty by people (hidden from them and from screen readers); bots fill it. */}
        <input
          type="text"
          name={CONTACT_HONEYPOT_FIELD}
          value={form[CONTACT_HONEYPOT_FIELD]}
          onChange={set(CONTACT_HONEYPOT_FIELD)}
          tabIndex={-1}
          autoComplete="off"
          aria-hidden="true"
          className="absolute -left-[9999px] h-px w-px opacity-0"
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={send.isPending}>
            <Send className="size-4" aria-hidden /> {send.isPending ? 'Sending...' : 'Send Message'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
