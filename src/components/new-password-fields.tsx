import type { UseFormRegisterReturn } from 'react-hook-form';
import * as t from '../lib/i18n';
import { TextField } from './text-field';

interface NewPasswordFieldsProps {
  password: UseFormRegisterReturn<'password'>;
  confirmation: UseFormRegisterReturn<'password_confirmation'>;
  errors: { password?: { message?: string }; password_confirmation?: { message?: string } };
}

/** A new password typed twice, hidden, and never filled in by the browser's saved logins. */
export function NewPasswordFields({ password, confirmation, errors }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={t.passwordFields.password}
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...password}
      />
      <TextField
        label={t.passwordFields.confirmation}
        type="password"
        autoComplete="new-password"
        error={errors.password_confirmation?.message}
        {...confirmation}
      />
    </>
  );
}
