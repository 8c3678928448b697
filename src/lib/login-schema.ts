import { object, type Infer } from 'superstruct';
import * as t from './i18n';
import { text } from './validation';

/**
 * The login form's schema, in a module of its own: the login screen is what a browser loads before
 * signing in, and schemas.ts's other forms, with the platforms, posting rules and proxy parsing they
 * need, would add about 8 KB to it (issue 40.10). schemas.ts re-exports it with every other form's.
 */
export const loginSchema = object({
  login: text({
    required: t.validation.required,
    min: [2, t.validation.tooShort(2)],
    max: [50, t.validation.tooLong(50)],
  }),
  password: text({
    required: t.validation.required,
    min: [5, t.validation.tooShort(5)],
    max: [50, t.validation.tooLong(50)],
  }),
});
export type LoginForm = Infer<typeof loginSchema>;
