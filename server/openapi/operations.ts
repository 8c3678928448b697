import { consentPlatformIds } from '../../src/lib/platforms';
import { t } from '../messages';

/**
 * What the OpenAPI document says of each operation of /api/docs beyond its schemas, keyed by its
 * operationId (server/openapi/documents.ts derives it from the method and the path): a summary in
 * Ukrainian, and the answers the schemas cannot tell. A route without an entry here fails
 * tests/server/openapi-document.test.ts.
 */
export interface OperationNotes {
  summary: string;
  /** Reachable without a bearer; `optional`: a bearer adds to the answer (the engine's figures of /readyz). */
  access?: 'public' | 'optional';
  /**
   * Refusals of its own beyond those every operation of its kind may answer (server/openapi/documents.ts):
   * 409 when the state forbids it (taken, already published, still running...), 429 on its own
   * limit, 403 on a public route that checks a signature.
   */
  refusals?: (403 | 409 | 429)[];
}

/** The routes each platform connected through the installation app's consent has (routes/accounts.ts, routes/oauth.ts). */
const consentRouteNotes = Object.fromEntries(
  consentPlatformIds.flatMap((platform) => {
    const pathName = platform[0]!.toUpperCase() + platform.slice(1);
    const name = t.platform.names[platform];
    return [
      [`postAccountsConnect${pathName}ById`, { summary: `Посилання для підключення ${name}` }],
      [`getOauth${pathName}Callback`, { summary: `Повернення з ${name} після згоди`, access: 'public' }],
    ];
  }),
) as Record<string, OperationNotes>;

export const operationNotes: Record<string, OperationNotes> = {
  ...consentRouteNotes,
  getHealthz: { summary: 'Чи працює сервер', access: 'public' },
  getReadyz: { summary: 'Чи готовий сервер приймати запити (з цифрами черги для адміністратора)', access: 'optional' },

  postAuthLogin: { summary: 'Увійти за логіном і паролем', access: 'public', refusals: [429] },
  postAuthRefresh: { summary: 'Оновити токен доступу', access: 'public' },
  getAuthMe: { summary: 'Поточний користувач' },
  postAuthLogout: { summary: 'Вийти: відкликати токен оновлення', access: 'public' },
  postAuthPassword: { summary: 'Змінити власний пароль', refusals: [429] },

  getPhotoBg: { summary: 'Список фонових зображень' },
  postPhotoBg: { summary: 'Завантажити фонові зображення' },
  deletePhotoBgById: { summary: 'Видалити фонове зображення' },

  getCreateVideo: { summary: 'Список запитів на створення відео' },
  getCreateVideoBackgrounds: { summary: 'Фони, які можна вибрати для нового запиту' },
  getCreateVideoRequestByIdUpload: { summary: 'Запит на створення з його відео і варіантами для публікації' },
  postCreateVideoCreate: { summary: 'Створити запит: завантажити відео і замовити варіанти' },
  deleteCreateVideoById: { summary: 'Видалити запит на створення', refusals: [409] },

  getUploadVideo: { summary: 'Список опублікованих наборів' },
  postUploadVideoUpload: { summary: 'Опублікувати відео ще раз після помилки', refusals: [409] },
  getUploadVideoByIdUpload: { summary: 'Опублікований набір' },
  patchUploadVideoByIdUpload: { summary: 'Змінити назву, опис і теги опублікованого набору' },
  postUploadVideoByIdUpload: { summary: 'Опублікувати відео запиту', refusals: [409] },
  patchUploadVideoByIdUploadVideoByVideoId: { summary: 'Перенести заплановане відео на іншу дату або профіль', refusals: [409] },
  postUploadVideoByIdUploadSpread: { summary: 'Запропонувати розклад відео за профілями і днями', refusals: [409] },
  deleteUploadVideoByIdUploadVideoByVideoIdSchedule: { summary: 'Скасувати заплановану публікацію відео', refusals: [409] },
  postUploadVideoByIdUploadVideoByVideoIdSchedule: { summary: 'Повернути скасовану публікацію відео', refusals: [409] },
  deleteUploadVideoByIdUploadVideoByVideoIdScheduleByPlatform: {
    summary: 'Скасувати заплановану публікацію відео на одній платформі',
    refusals: [409],
  },
  postUploadVideoByIdUploadVideoByVideoIdScheduleByPlatform: {
    summary: 'Повернути скасовану публікацію відео на одній платформі',
    refusals: [409],
  },

  getMediaByPath: { summary: 'Файл за підписаним посиланням', access: 'public', refusals: [403] },

  getAccountsBudget: { summary: 'Скільки публікацій профілі ще можуть зробити за день' },
  getAccounts: { summary: 'Список профілів' },
  postAccounts: { summary: 'Створити профіль' },
  getAccountsSearch: { summary: 'Профілі для вибору в групі' },
  getAccountsSetup: { summary: 'Що потрібно для форми профілю' },
  getAccountsById: { summary: 'Профіль' },
  patchAccountsById: { summary: 'Змінити профіль' },
  deleteAccountsById: { summary: 'Видалити профіль', refusals: [409] },
  patchAccountsUpdateChannelById: { summary: 'Змінити опис каналу YouTube' },
  patchAccountsUpdateProfileInstById: { summary: "Змінити ім'я та опис профілю Instagram" },
  putAccountsByIdSlots: { summary: 'Задати години публікацій профілю' },
  deleteAccountsByIdSlots: { summary: 'Прибрати власні години публікацій профілю' },
  getAccountsByIdVideo: { summary: 'Відео профілю' },
  postAccountsByIdHealthCheck: { summary: 'Перевірити стан профілю на платформах', refusals: [409, 429] },
  postAccountsConnectYoutubeById: { summary: 'Посилання для підключення YouTube' },

  getAccountsGroup: { summary: 'Список груп профілів' },
  postAccountsGroup: { summary: 'Створити групу профілів' },
  getAccountsGroupById: { summary: 'Група профілів' },
  patchAccountsGroupById: { summary: 'Змінити групу профілів' },
  deleteAccountsGroupById: { summary: 'Видалити групу профілів' },
  putAccountsGroupByIdSlots: { summary: 'Задати години публікацій групи' },
  deleteAccountsGroupByIdSlots: { summary: 'Прибрати власні години публікацій групи' },

  getTags: { summary: 'Список наборів тегів' },
  postTags: { summary: 'Створити набір тегів' },
  getTagsById: { summary: 'Набір тегів' },
  patchTagsById: { summary: 'Змінити набір тегів' },
  deleteTagsById: { summary: 'Видалити набір тегів' },

  getUsers: { summary: 'Список користувачів' },
  postUsers: { summary: 'Створити користувача', refusals: [409] },
  getUsersById: { summary: 'Користувач' },
  patchUsersById: { summary: 'Змінити користувача', refusals: [409] },
  deleteUsersById: { summary: 'Видалити користувача', refusals: [409] },
  getUsersByIdAccount: { summary: 'Профілі користувача' },
  getUsersByIdVideo: { summary: 'Відео користувача' },

  getOauthAnotherBrowser: { summary: 'Сторінка: підключення почато в іншому браузері', access: 'public' },
  getOauthYoutubeStart: { summary: 'Почати підключення YouTube за посиланням', access: 'public' },
  getOauthYoutubeCallback: { summary: 'Повернення з Google після згоди', access: 'public' },

  getStatsVideoByIdUpload: { summary: 'Статистика опублікованого набору' },
  getStatsAccountsById: { summary: 'Статистика профілю' },
  getStatsChoices: { summary: 'Що можна вибрати у фільтрах статистики' },
  getStatsTop: { summary: 'Найкращі відео за період' },
  getStatsOverview: { summary: 'Огляд статистики за період' },
  getStatsExportCsv: { summary: 'Статистика за період у CSV' },

  getCalendar: { summary: 'Календар публікацій' },
  postPlansPreview: { summary: 'Перевірити файл плану: кожен рядок, нічого не зберігаючи' },
  postPlansByPlanIdCommit: { summary: 'Зберегти перевірений план', refusals: [409] },
  getPlansExport: { summary: 'План періоду: заплановані й утримані публікації' },
  getPlansExportCsv: { summary: 'План періоду в CSV' },
  getPlansTemplateCsv: { summary: 'Шаблон файлу плану в CSV' },
  getHome: { summary: 'Головна сторінка оператора' },

  getNotifications: { summary: 'Сповіщення' },
  postNotificationsRead: { summary: 'Позначити всі сповіщення прочитаними' },
  postNotificationsByIdRead: { summary: 'Позначити сповіщення прочитаним' },

  getTokens: { summary: 'Власні токени API' },
  postTokens: { summary: 'Створити токен API', refusals: [409] },
  deleteTokensById: { summary: 'Відкликати токен API' },

  getWebhooks: { summary: 'Вебхуки' },
  postWebhooks: { summary: 'Додати вебхук' },
  patchWebhooksById: { summary: 'Змінити вебхук' },
  deleteWebhooksById: { summary: 'Видалити вебхук' },
  postWebhooksByIdTest: { summary: 'Надіслати пробну подію на вебхук', refusals: [429] },
  getWebhooksByIdDeliveries: { summary: 'Останні доставки вебхука' },

  getTelegram: { summary: 'Підключення Telegram' },
  putTelegram: { summary: 'Змінити сповіщення в Telegram' },
  deleteTelegram: { summary: 'Відключити Telegram' },
  postTelegramCode: { summary: 'Код для підключення Telegram', refusals: [409] },
  postTelegramTest: { summary: 'Надіслати пробне сповіщення в Telegram', refusals: [409, 429] },

  getPostingRules: { summary: 'Правила публікації профілів' },
  putPostingRulesById: { summary: 'Зберегти правила публікації профілю' },
};

/** The document's tags, one per resource (the path's first part after /api), with what each holds. */
export const tagDescriptions: Record<string, string> = {
  health: 'Стан сервера для моніторингу',
  auth: 'Вхід, сесія і пароль',
  'photo-bg': 'Фонові зображення',
  'create-video': 'Запити на створення відео',
  'upload-video': 'Публікація відео і опубліковані набори',
  media: 'Файли за підписаними посиланнями',
  accounts: 'Профілі та їх підключення до платформ',
  'accounts-group': 'Групи профілів',
  tags: 'Набори тегів',
  users: 'Користувачі (для адміністратора)',
  oauth: 'Повернення з платформ після згоди',
  stats: 'Статистика',
  calendar: 'Календар',
  plans: 'Плани публікацій: імпорт і експорт',
  home: 'Головна',
  notifications: 'Сповіщення',
  tokens: 'Токени API',
  webhooks: 'Вебхуки',
  telegram: 'Сповіщення в Telegram',
  'posting-rules': 'Правила публікації',
};

/** The refusals an operation may answer, in SPEC's error shape (server/app.ts answerError). */
export const refusalDescriptions: Record<number, string> = {
  400: 'Запит не пройшов перевірку; message каже, що не так',
  401: 'Немає входу, або сесія чи токен закінчились',
  403: 'Не дозволено: роль користувача чи обсяг токена',
  404: 'Не знайдено',
  409: 'Стан не дозволяє цієї дії зараз',
  413: 'Запит або файл завеликий',
  429: 'Забагато спроб; Retry-After каже, за скільки секунд спробувати знову',
};

/** The sandbox document's words: its operations are the platforms' own calls, named by their path. */
export const sandboxWords = {
  control: (call: string) => `Керування пісочницею: ${call}`,
  emulated: (host: string, call: string) => `Емуляція ${host}: ${call}`,
  controlsTag: 'Керування пісочницею: збої, виклики, пости (для адміністратора)',
  hostTag: (host: string) => `Емуляція API ${host}`,
};
