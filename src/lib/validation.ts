import { define, type Struct, StructError, validate } from 'superstruct';

interface TextRules {
  /** Message when the value is missing or blank; omit for an optional field. */
  required?: string;
  min?: [length: number, message: string];
  max?: [length: number, message: string];
}

/**
 * A string field whose every rule carries its own Ukrainian message. Superstruct's refinements
 * would report the type error first; one validator per field keeps the spec's order of messages.
 */
export function text(rules: TextRules): Struct<string, null> {
  return define<string>('text', (value) => {
    if (value === undefined || value === null || value === '') {
      return rules.required ?? true;
    }
    if (typeof value !== 'string') return rules.required ?? 'Очікується текст';
    if (rules.required && value.trim() === '') return rules.required;
    if (rules.min && value.length < rules.min[0]) return rules.min[1];
    if (rules.max && value.length > rules.max[0]) return rules.max[1];
    return true;
  });
}

/** The messages of every failing field, in order, for a 400 answer. */
export function failureMessages(error: StructError): string[] {
  return [...new Set(error.failures().map((failure) => failure.message))];
}

/** Each field's first failing message, as a form shows them beside its fields; empty when the values pass. */
export function fieldMessages<T>(schema: Struct<T, unknown>, input: unknown): Partial<Record<string, string>> {
  const [error] = validate(input, schema, { coerce: true });
  const messages: Partial<Record<string, string>> = {};
  for (const failure of error?.failures() ?? []) messages[String(failure.path[0] ?? '')] ??= failure.message;
  return messages;
}

export type CheckResult<T> = { ok: true; value: T } | { ok: false; messages: string[] };

export function check<T>(schema: Struct<T, unknown>, input: unknown): CheckResult<T> {
  const [error, value] = validate(input, schema, { coerce: true });
  return error ? { ok: false, messages: failureMessages(error) } : { ok: true, value: value as T };
}
