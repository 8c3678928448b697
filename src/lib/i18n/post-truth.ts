import { plural } from './words';

/** Issue 21: what a post's state says, its waits, and the per-video controls of a published set. */
export const postTruth = {
  noPlatformTicked: 'Оберіть хоча б одну платформу',
  /** `video` names it as its screen does: the publish form by its place (t.publish.video), a published set by its id (setVideo). */
  noPlatformFor: (video: string, profile: string, platforms: string) =>
    `${video} не буде опубліковано: профіль ${profile} не має жодної з вибраних платформ (${platforms}). Увімкніть платформу в профілі або оберіть інший профіль.`,
  platformsMissing: (profile: string, platforms: string[]) =>
    platforms.length === 1
      ? `Не публікується в ${platforms[0]}: профіль ${profile} не має цієї платформи`
      : `Не публікується в ${platforms.join(', ')}: профіль ${profile} не має цих платформ`,
  nothingWentOut: 'Жодне відео не опубліковано',
  manualProfileRemoved: (profile: string) => `Профіль ${profile} прибрано з вибраних: відео знову отримує профіль за чергою`,
  chosenByHand: 'Обрано вручну: зміна вибраних профілів його не змінить',
  gapsSummary: (count: number, refused: number) =>
    refused > 0
      ? `Відео, чий профіль не має жодної з вибраних платформ: ${refused}. Їх не буде опубліковано — змініть профіль або платформи (див. відео нижче).` +
        (count > refused
          ? ` Ще ${count - refused} ${plural(count - refused, ['вийде', 'вийдуть', 'вийдуть'])} не на всіх вибраних платформах.`
          : '')
      : `Відео, що вийдуть не на всіх вибраних платформах: ${count}. Їхні профілі мають не всі з них (див. відео нижче).`,
  accessFailed: 'Помилка доступу',
  waitRetry: (reason: string) => `Спроба не вдалася: ${reason}`,
  waitBusyProfile: (platform: string) => `Профіль зараз завантажує інше відео в ${platform}`,
  waitPlatform: (reason: string) => `Платформа просить зачекати: ${reason}`,
  /** The day is said only when it is not today's (src/lib/kyiv-time.ts, formatMoment). */
  nextAttemptAt: (time: string, day: string) => (day ? `наступна спроба ${day} о ${time}` : `наступна спроба о ${time}`),
  plannedAt: (time: string) => `заплановано на ${time}`,
  changeSchedule: 'Змінити',
  changeScheduleOf: (id: number) => `Змінити публікацію відео #${id}`,
  cancelSchedule: 'Скасувати публікацію',
  /** A video of a published set, by the id its ID column shows (SPEC's published video detail). */
  setVideo: (id: number) => `Відео #${id}`,
  scheduleTitle: (id: number) => `Публікація відео #${id}: поки вона не почалася`,
  scheduleDate: (id: number) => `Нова дата відео #${id}`,
  scheduleProfile: (id: number) => `Новий профіль відео #${id}`,
  scheduleSave: 'Зберегти',
  scheduleClose: 'Закрити',
  scheduleSaved: 'Публікацію перенесено',
  cancelQuestion: (id: number) => `Скасувати публікацію відео #${id}?`,
  cancelConsequence: (seconds: number) => `Відео не буде опубліковано. Ще ${seconds} секунд після скасування його можна повернути.`,
  keepSchedule: 'Залишити',
  cancelledVideo: (id: number) => `Публікацію відео #${id} скасовано`,
  undoCancel: 'Повернути',
  undoCancelOf: (id: number) => `Повернути публікацію відео #${id}`,
  restored: 'Публікацію повернуто',
  nothingCancelled: 'Відео не має скасованої публікації, яку можна повернути',
  restoreProfileDeleted: 'Не можна повернути публікацію: її профіль видалено',
  alreadyStarted: 'Публікація цього відео вже почалася: змінити чи скасувати її не можна',
  nothingScheduled: 'Відео не має запланованих публікацій',
  dateRequired: 'Вкажіть нову дату або профіль',
} as const;
