import { counted, nouns, numbers } from '../src/lib/i18n/words';
import * as shown from '../src/lib/i18n';

/** A Retry-After's wait as an operator reads it: seconds under a minute, whole minutes from there. */
const waitWords = (seconds: number) => (seconds < 60 ? `${seconds} с` : `${Math.ceil(seconds / 60)} хв`);

/**
 * The catalog's messages that only the server sends (its error answers, the failures it records),
 * kept out of the browser's bundle: the SPA shows them as the server words them. Server code takes
 * `t` from here: src/lib/i18n's catalog with these merged in, so each message keeps its path.
 */
export const t = {
  ...shown,
  settings: {
    ...shown.settings,
    wrongCurrentPassword: 'Поточний пароль невірний',
  },
  validation: {
    ...shown.validation,
  },
  youtubeOauth: {
    notReady: 'Щоб отримати посилання, увімкніть YouTube і збережіть ID клієнта та секрет клієнта',
    linkExpired: 'Посилання авторизації недійсне або застаріло. Скопіюйте нове посилання',
    denied: 'Доступ до YouTube не надано',
    exchangeFailed: 'Google не видав токен',
    noRefreshToken: 'Google не повернув токен оновлення: відкличте доступ застосунку в акаунті Google і відкрийте посилання знову',
  },
  /** The page a consent callback or YouTube's link answers when it cannot go on (routes/oauth.ts). */
  consentPage: {
    title: 'Підключення не завершено',
    anotherBrowser:
      'Це підключення почали в іншому браузері, тож його не завершено і доступу ніхто не отримав. Почніть підключення знову й дайте згоду в тому самому браузері.',
    home: 'На головну',
  },
  connections: {
    ...shown.connections,
    denied: (platform: string) => `Доступ до ${platform} не надано`,
    exchangeFailed: (platform: string) => `${platform} не видав токен`,
    /**
     * A consent that lets the app act for a person's pages (Meta's Pages), of which a profile posts
     * to one: none of them takes posts, or several do (server/platforms/facebook/oauth.ts).
     */
    pageChoice: {
      none: (platform: string, pages: string) =>
        pages
          ? `${platform}: на жодній із дозволених сторінок (${pages}) не можна публікувати. Підключіть ще раз і оберіть сторінку, де ви створюєте вміст`
          : `${platform}: не дозволено жодної сторінки. Підключіть ще раз і оберіть сторінку для публікацій`,
      several: (platform: string, pages: string) =>
        `${platform}: дозволено кілька сторінок (${pages}), а профіль публікує на одну. Підключіть ще раз і залиште позначеною лише її`,
    },
  },
  users: {
    ...shown.users,
    loginTaken: 'Користувач з таким логіном вже існує',
    cannotDeleteSelf: 'Не можна видалити власний обліковий запис',
  },
  createVideo: {
    ...shown.createVideo,
    unknownBackground: 'Фонове зображення не знайдено серед ваших зображень',
  },
  upload: {
    ...shown.upload,
    tooManyFiles: (max: number) => `Забагато файлів: максимум ${max} за раз`,
    malformed: 'Файли надійшли не повністю або пошкоджені, нічого не збережено. Надішліть ще раз',
  },
  media: {
    ...shown.media,
    emptyFile: 'Файл порожній',
    rangeOutside: 'Запитаний діапазон виходить за межі файлу',
    notVideo: 'Файл повинен бути відео',
    videoDamaged: 'Відео пошкоджене або завантажене не повністю',
    videoTooLong: (seconds: number) => `Відео задовге: максимум ${Math.floor(seconds / 60)} хв ${seconds % 60} с`,
    videoFrameTooLarge: (side: number) => `Кадр відео завеликий: максимум ${counted(side, nouns.pixels)} по кожній стороні`,
    fileTooLarge: (bytes: number) => `Файл завеликий: максимум ${Math.floor(bytes / 1024 ** 2)} МБ`,
    imageTooLarge: (pixels: number) => `Зображення завелике: максимум ${counted(Math.floor(pixels / 1_000_000), nouns.megapixels)}`,
    linkInvalid: 'Посилання недійсне або застаріло',
  },
  publish: {
    ...shown.publish,
    unknownAccount: 'Профіль не знайдено серед профілів власника запиту',
    unknownVideo: 'Відео не належить до цього запиту',
    badDate: 'Невірна дата',
    nothingToRetry: 'Відео не має невдалих публікацій',
  },
  published: {
    ...shown.published,
  },
  postTruth: {
    ...shown.postTruth,
    retryRevoked: (profile: string, platform: string) =>
      `Не можна опублікувати знову: доступ профілю ${profile} до ${platform} не працює. Підключіть профіль знову.`,
    retryProfileDeleted: 'Не можна опублікувати знову: профіль видалено. Оберіть відео інший профіль.',
    /** Issue 40.1: one post of a video, cancelled or put back by its platform. */
    postNotScheduled: (platform: string) => `Відео не має запланованої публікації в ${platform}`,
    postAlreadyStarted: (platform: string) => `Публікація відео в ${platform} уже почалася або вийшла: змінити чи скасувати її не можна`,
    /** A post's move names a day; its profile is the video's (issue 40.1). */
    postDateRequired: 'Вкажіть нову дату публікації',
    postMovesInTime: 'Окрему публікацію можна перенести лише на іншу дату: профіль змінюється для всього відео',
    postNothingCancelled: (platform: string) => `Відео не має скасованої публікації в ${platform}, яку можна повернути`,
  },
  calendar: {
    ...shown.calendar,
    oneFilter: 'Покажіть профіль або групу, не обидва відразу',
  },
  postingCaps: {
    ...shown.postingCaps,
    badDate: 'Дата має бути у форматі РРРР-ММ-ДД',
    badAccounts: 'Вкажіть профілі як список номерів через кому',
  },
  statsScreen: {
    ...shown.statsScreen,
    /** The form offers one choice; a script may send both. */
    profileOrGroup: 'Вкажіть профіль або групу, не обидва',
  },
  spread: {
    ...shown.spread,
    /** Why a proposed date is where it is (POST /api/upload-video/{idUpload}/spread). */
    bestHour: (hour: string, views: number, mean: number, posts: number) =>
      `${hour} — найкраща година профілю: відео, що виходять о цій порі, набирають за перші 48 год у середньому ${counted(views, nouns.views)}, а всі разом — ${numbers.format(mean)} (враховано: ${counted(posts, nouns.posts)})`,
    firstFree: (posts: number, needed: number) =>
      `Перший вільний слот: найкращу годину профілю видно, коли в нього є ${counted(needed, nouns.posts)} з переглядами, а поки що ${posts}`,
    firstFreeBestTaken: 'Перший вільний слот: найкращі години профілю в ці дні вже зайняті',
    /** Issue 43.1: a date of the even spread. */
    evenSpot: (posts: number, needed: number) =>
      `Рівномірно по днях і годинах профілю: найкращу годину профілю видно, коли в нього є ${counted(needed, nouns.posts)} з переглядами, а поки що ${posts}`,
    evenBestTaken: 'Рівномірно по днях і годинах профілю: найкращі години профілю в ці дні вже зайняті',
    later: (why: string) => `раніше не можна — ${why}`,
    noSlot: (profile: string, until: string, why: string) => `Профіль ${profile}: немає вільних слотів до ${until} — ${why}`,
    noPlatform: (profile: string) => `Профіль ${profile}: не має жодної з позначених платформ`,
    /** What stands in a post's way, as the reasons and a refused calendar move name it. */
    obstacles: {
      rollingCap: (platform: string, limit: number, hours: number) =>
        hours === 24 ? `ліміт ${platform} ${limit} на добу` : `ліміт ${platform} ${limit} за ${hours} год`,
      youtubeCap: (limit: number) => `ліміт YouTube ${limit} на добу (за тихоокеанським часом)`,
      gap: (minutes: number) => `проміжок ${minutes} хв між публікаціями профілю`,
      hours: (from: string, to: string) => `години публікацій профілю ${from}–${to}`,
      days: (days: string) => `дні публікацій профілю: ${days}`,
    },
    dayShortNames: ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'нд'],
    /** A calendar move refused: the post keeps its time. */
    moveRefused: (profile: string, why: string) => `Не перенесено: профіль ${profile} — ${why}`,
    videoTwice: 'Кожне відео можна вказати лише раз',
    /** Issue 43.5: a possible duplicate, one line each (after t.spread.duplicatesFound). */
    duplicateRepeat: (video: string, platform: string, profile: string, when: string) =>
      `${video}: це відео вже має публікацію в ${platform} (профіль ${profile}, ${when})`,
    duplicateTwice: (video: string, platform: string) => `${video}: вказано двічі для ${platform}`,
    duplicateGap: (video: string, profile: string, other: string, when: string, minutes: number) =>
      `${video}: профіль ${profile} публікує ${other} о ${when} — ближче, ніж його проміжок ${minutes} хв`,
    savedVideo: (id: number) => `відео #${id}`,
    movedVideo: (id: number) => `Відео #${id}`,
  },
  finalDelete: {
    /** A delete refused, so that nothing it was meant to stop goes live after the answer. */
    inFlight: (items: string[]) =>
      `Не видалено: ще триває публікація, яку не вдалося зупинити, — ${items.join('; ')}. Спробуйте ще раз за хвилину.`,
    item: (video: string, position: number, platform: string, profile: string) =>
      `відео «${video}» №${position} у ${platform}, профіль «${profile}»`,
  },
  apiTokens: {
    ...shown.apiTokens,
    tooMany: (max: number) => `Щонайбільше ${max} діючих API-токенів на користувача: відкличте непотрібний`,
  },
  webhooks: {
    ...shown.webhooks,
    httpsRequired: 'Адреса вебхука має починатися з https://',
    addressRefused: 'Вебхук не може вести на локальну, приватну чи службову адресу, а також на адресу, яку не вдалося знайти',
    tooMany: (max: number) => `Щонайбільше ${max} вебхуків на користувача: видаліть непотрібний`,
  },
  health: {
    ...shown.health,
    /** POST /api/accounts/{id}/health-check while another check of the profile runs (409). */
    checkRunning: 'Профіль уже перевіряється. Дочекайтеся кінця перевірки',
    /** The same within a minute of the profile's last check (429). */
    checkedRecently: (seconds: number) => `Профіль щойно перевірено. Перевірити знову можна через ${waitWords(seconds)}`,
  },
  telegram: {
    ...shown.telegram,
    notConfigured: 'Telegram не налаштовано на сервері: задайте TELEGRAM_BOT_TOKEN',
  },
  alertTests: {
    ...shown.alertTests,
    /** POST /api/telegram/test with no chat connected (409). */
    telegramNotConnected: 'Спершу підключіть чат Telegram: тестове повідомлення нема куди надіслати',
    /** What the bot writes for a test. */
    telegramMessage: '🔔 Тестове повідомлення Shorts Office: сповіщення надходитимуть у цей чат.',
    /** Past the user's test sends in the window (429; login-throttle.ts, alertTestThrottle). */
    tooMany: (seconds: number) => `Забагато тестових надсилань. Спробуйте знову через ${waitWords(seconds)}.`,
    /** A webhook whose secret was sealed under another SECRET_KEY: nothing it sends could be signed (409). */
    secretUnreadable: 'Секрет цього вебхука не вдається прочитати: його збережено з іншим SECRET_KEY. Видаліть вебхук і додайте знову',
  },
  /** What the bot writes (plain text: Telegram shows it as it is). */
  alerts: {
    /** A bucket's heading: one event, or how many came together. */
    heading: {
      'post.failed': (count: number) => (count === 1 ? '❌ Публікація не вдалася' : `❌ ${counted(count, nouns.postsFailed)}`),
      'post.held': (count: number) =>
        count === 1 ? '⏸ Публікацію утримано лімітом платформи' : `⏸ ${counted(count, nouns.postsHeld)} лімітом платформи`,
      'post.published': (count: number) => (count === 1 ? '✅ Публікація вийшла' : `✅ ${counted(count, nouns.postsOut)}`),
      'profile.unhealthy': (count: number) =>
        count === 1 ? '⚠️ Профіль не працює' : `⚠️ ${counted(count, ['профіль не працює', 'профілі не працюють', 'профілів не працюють'])}`,
      'grant.revoked': (count: number) =>
        count === 1
          ? '🔑 Профіль втратив доступ до платформи'
          : `🔑 ${counted(count, ['профіль втратив', 'профілі втратили', 'профілів втратили'])} доступ до платформ`,
    } as Record<string, (count: number) => string>,
    /** One post: where it went and what it is. */
    post: (platform: string, profile: string | null, title: string) =>
      `${platform} · ${profile ?? 'профіль видалено'} · «${title || 'без назви'}»`,
    failedBecause: (reason: string) => `причина: ${reason}`,
    heldUntil: (time: string) => `піде ${time} за київським часом`,
    unhealthy: (profile: string, platform: string | null, reason: string) => `${profile}${platform ? ` — ${platform}` : ''}: ${reason}`,
    more: (count: number) => `…і ще ${count}`,
    connected: 'Готово: сповіщення Shorts Office надходитимуть у цей чат. Що саме — оберіть у налаштуваннях.',
    unknownCode: 'Код не знайдено або він застарів. Отримайте новий у налаштуваннях Shorts Office і надішліть його сюди.',
    digest: {
      title: (day: string) => `☀️ Підсумок за ${day}`,
      out: (count: number, byPlatform: string) => `Вийшло: ${counted(count, nouns.posts)}${byPlatform ? ` (${byPlatform})` : ''}`,
      failed: (count: number) => `Не вдалося: ${counted(count, nouns.posts)}`,
      quiet: 'Учора публікацій не було.',
      top: 'Топ відео за переглядами за добу:',
      topLine: (place: number, title: string, platform: string, views: number) =>
        `${place}. «${title || 'без назви'}» (${platform}) — +${counted(views, nouns.views)}`,
    },
  },
  server: {
    invalidCredentials: 'Невірний логін або пароль',
    /** The wait is the answer's Retry-After, so a mistyped password after a spray tells the operator how long, not just "later". */
    tooManyLoginAttempts: (seconds: number) => `Забагато спроб входу. Спробуйте знову через ${waitWords(seconds)}.`,
    unauthorized: 'Потрібно увійти в систему',
    sessionExpired: 'Сесія завершилась, увійдіть знову',
    forbidden: 'Недостатньо прав',
    apiTokenEnded: 'API-токен відкликано або строк його дії минув',
    apiTokenReadOnly: 'API-токен дозволяє лише читання: створіть токен з правом публікації',
    apiTokenNotAdmin: 'API-токен не має прав адміністратора',
    /** A token cannot make or revoke tokens, nor change the password: a leaked one would keep itself alive. */
    apiTokenNeedsSession: 'Цю дію можна виконати лише після входу з паролем, не API-токеном',
    mcpNeedsApiToken: 'MCP-сервер приймає лише персональний API-токен (sho_…), не токен сесії входу',
    /** Past a guessing limit: of the address, of the token's first characters, or of all guesses (login-throttle.ts). */
    tooManyTokenAttempts: (seconds: number) => `Забагато невірних API-токенів. Спробуйте знову через ${waitWords(seconds)}.`,
    notFound: 'Не знайдено',
    routeNotFound: 'Такого шляху API не існує',
    badJson: 'Некоректне тіло запиту',
    badRequest: 'Некоректний запит',
    bodyTooLarge: 'Тіло запиту завелике',
    invalidJson: 'Тіло запиту не є коректним JSON',
    emptyJson: 'Тіло запиту порожнє, хоча заголовок Content-Type каже application/json',
    bodyLengthMismatch: 'Тіло запиту обірване: надійшло не стільки байтів, скільки вказано в заголовку Content-Length',
    unsupportedMediaType: 'Непідтримуваний тип тіла запиту (Content-Type): надсилайте application/json або multipart/form-data',
    badUrl: 'Адреса запиту містить некоректну %-послідовність',
    urlTooLong: 'Частина адреси запиту задовга',
    headersTooLarge: 'Заголовки запиту завеликі',
    requestTimeout: 'Запит надходив надто довго, зʼєднання закрито',
    malformedRequest: 'Запит не відповідає протоколу HTTP',
    invalidUtf8: 'Тіло запиту містить байти, що не є коректним UTF-8: надсилайте текст у кодуванні UTF-8',
    jsonTooDeep: (max: number) => `Тіло запиту вкладене надто глибоко: більше ${max} рівнів обʼєктів і списків`,
    duplicateJsonName: (name: string) =>
      `Поле «${name.slice(0, 100)}» вказано в одному обʼєкті JSON двічі: кожне поле можна вказати лише раз`,
    unsupportedCharset: (charset: string) =>
      `Непідтримуване кодування тіла запиту «${charset.slice(0, 40)}»: надсилайте текст у кодуванні UTF-8`,
    /** The `error` field of every error answer: the status's name, as Node's STATUS_CODES names it in English. */
    statusNames: {
      400: 'Некоректний запит',
      401: 'Потрібна автентифікація',
      403: 'Доступ заборонено',
      404: 'Не знайдено',
      405: 'Метод не дозволено',
      406: 'Неприйнятний запит',
      408: 'Час очікування запиту вичерпано',
      409: 'Конфлікт',
      413: 'Запит завеликий',
      414: 'Адреса запиту задовга',
      415: 'Непідтримуваний тип вмісту',
      416: 'Діапазон недосяжний',
      429: 'Забагато запитів',
      431: 'Заголовки запиту завеликі',
      500: 'Внутрішня помилка сервера',
      502: 'Помилка зовнішньої служби',
      503: 'Служба недоступна',
      504: 'Зовнішня служба не відповіла вчасно',
      507: 'Недостатньо місця на сервері',
    } as Record<number, string>,
    internalError: 'Внутрішня помилка сервера',
    diskFull: 'На сервері закінчилося місце для файлів, нічого не збережено. Повідомте адміністратора',
    notReady: 'Сервер не готовий: база даних не відповідає',
  },
} as const;
