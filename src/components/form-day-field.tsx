import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { DateTimeField } from './date-time-field';

interface FormDayFieldProps<Form extends FieldValues> {
  control: Control<Form>;
  /** A field holding a Kyiv day as `YYYY-MM-DD`. */
  name: FieldPathByValue<Form, string>;
  label: string;
  disabled?: boolean;
}

/** One end of a period of Kyiv days in a form: the statistics filters' and the spread panel's. */
export function FormDayField<Form extends FieldValues>({ control, name, label, disabled }: FormDayFieldProps<Form>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <DateTimeField
          time={false}
          label={label}
          value={field.value}
          onChange={field.onChange}
          disabled={disabled}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
