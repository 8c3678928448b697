import { counted, nouns } from './words';

export const validation = {
  required: 'Обовʼязкове до заповнення',
  tooShort: (min: number) => `Занадто коротко: щонайменше ${counted(min, nouns.characters)}`,
  tooLong: (max: number) => `Занадто довго: щонайбільше ${counted(max, nouns.characters)}`,
  invalidValue: (field: string) => `Некоректне значення поля «${field}»`,
  controlCharacters: (field: string) =>
    `Поле «${field}» містить недопустимі символи: невидимі керівні або непарну половину сурогатної пари`,
  tooMany: (field: string) => `Забагато значень у полі «${field}»`,
  unknownField: (field: string) => `Невідоме поле «${field}»: приберіть його із запиту`,
  wrongType: (field: string, expected: string) => `Поле «${field}» має бути ${expected}`,
  bodyWrongType: (expected: string) => `Тіло запиту має бути ${expected}`,
  /** What a JSON value should have been, by its JSON Schema type, as wrongType's `expected`. */
  types: {
    boolean: 'логічним значенням (true або false), без лапок',
    integer: 'цілим числом',
    number: 'числом',
    string: 'текстом',
    object: 'обʼєктом',
    array: 'списком',
    null: 'null',
  } as Record<string, string>,
  or: ' або ',
} as const;
