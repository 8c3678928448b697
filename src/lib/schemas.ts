import { coerce, define, object, string, type Infer, type Struct } from 'superstruct';
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

/** What the file rules look at: a browser File, or the name and declared type of a multipart part. */
export interface FileLike {
  name: string;
  type: string;
}

interface FileRules {
  min: [count: number, message: string];
  max?: [count: number, message: string];
  /** The declared MIME type must start with this ('image/', 'video/'). */
  type: [prefix: string, message: string];
}

function fileList(rules: FileRules): Struct<FileLike[], null> {
  return define<FileLike[]>('files', (value) => {
    const files = Array.isArray(value) ? (value as Partial<FileLike>[]) : [];
    if (files.length < rules.min[0]) return rules.min[1];
    if (rules.max && files.length > rules.max[0]) return rules.max[1];
    if (files.some((file) => typeof file?.type !== 'string' || !file.type.startsWith(rules.type[0]))) return rules.type[1];
    return true;
  });
}

export const photoUploadSchema = object({
  files: fileList({ min: [1, t.photos.atLeastOne], type: ['image/', t.photos.mustBeImage] }),
});
export type PhotoUploadForm = Infer<typeof photoUploadSchema>;

/** The server's MAX_VARIANTS default; the server checks its own configured limit again. */
export const defaultMaxVariants = 50;

function variantCount(max: number): Struct<number, null> {
  const count = define<number>('countVideo', (value) => {
    if (typeof value !== 'number' || Number.isNaN(value)) return t.createVideo.countRequired;
    if (!Number.isInteger(value) || value < 1 || value > max) return t.createVideo.countRange(max);
    return true;
  });
  // A text input and a multipart field both carry the number as text.
  return coerce(count, string(), (raw) => (raw.trim() === '' ? Number.NaN : Number(raw)));
}

export function createVideoSchema(maxVariants = defaultMaxVariants) {
  return object({
    countVideo: variantCount(maxVariants),
    video: fileList({
      min: [1, t.createVideo.atLeastOne],
      max: [1, t.createVideo.atMostOne],
      type: ['video/', t.createVideo.mustBeVideo],
    }),
  });
}
export type CreateVideoForm = Infer<ReturnType<typeof createVideoSchema>>;
