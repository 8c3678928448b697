import { object, type Infer } from 'superstruct';
import { t } from './i18n';
import { text } from './validation';

/** One schema per form. The client validates with it, and the server checks the same schema again. */

export const loginSchema = object({
  login: text({
    required: t.validation.required,
    min: [2, t.validation.tooShort],
    max: [50, t.validation.tooLong],
  }),
  password: text({
    required: t.validation.required,
    min: [5, t.validation.tooShort],
    max: [50, t.validation.tooLong],
  }),
});
export type LoginForm = Infer<typeof loginSchema>;
