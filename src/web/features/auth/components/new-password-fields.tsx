import { PASSWORD_MAX, PASSWORD_MIN } from '../../../../contracts/auth';
import { TextField } from '../../../components/ui/form-controls';

/** A new password typed twice, with the contract's length bounds (setup, reset and set-password pages). */
export function NewPasswordFields({
  label = 'New password',
  password,
  confirm,
  onPassword,
  onConfirm,
}: {
  label?: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
}) {
  const bounds = { type: 'password', autoComplete: 'new-password', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX } as const;
  return (
    <>
      <TextField size="lg" label={label} {...bounds} value={password} onChange={(e) => onPassword(e.target.value)} />
      <TextField size="lg" label="Confirm password" {...bounds} value={confirm} onChange={(e) => onConfirm(e.target.value)} />
    </>
  );
}
