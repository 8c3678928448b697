/**
 * Every Ukrainian string the product shows, in one place. Texts marked by SPEC.md are copied
 * from it, except where its drafts misspell ('Кілкість', 'Группа', 'Пороль', 'TikTiok',
 * 'Профіля'): a Ukrainian reader takes those for mistakes, so they read as spelled here. SPEC's
 * API field names (`TikTiokAuthStr`) are the contract and stay as they are.
 * The server imports this file too, through server/messages.ts, which adds the messages only the
 * server sends (its error answers), so they stay out of the browser's bundle and the rest match the
 * client's word for word.
 */

const pluralRules = new Intl.PluralRules('uk');
const numbers = new Intl.NumberFormat('uk-UA');

/**
 * A sentence carried on after a colon: its first word lower-cased unless it is a name or an
 * abbreviation ('Файл завеликий' → 'файл завеликий', 'TikTok' and 'МБ' stay), as Ukrainian writes it (issue 40.7).
 */
const afterColon = (sentence: string) => sentence.replace(/^[А-ЩЬЮЯЄІЇҐ](?=[а-щьюяєіїґʼ'])/u, (letter) => letter.toLocaleLowerCase('uk'));

/** The words for `count` by Ukrainian rules (Intl.PluralRules('uk')): [1, 21, 31…; 2–4, 22–24…; 0, 5–20, 25…]. */
function plural(count: number, [one, few, many]: [string, string, string]): string {
  const form = pluralRules.select(count);
  if (form === 'one') return one;
  // Fractions ('other') take the same form as 2–4: «1,5 публікації».
  return form === 'many' ? many : few;
}

/** A count, its digits grouped as Ukrainian groups them ('2 300'), with its noun: '1 публікація', '3 публікації', '44 перегляди'. */
export function counted(count: number, forms: [string, string, string]): string {
  return `${numbers.format(count)} ${plural(count, forms)}`;
}

const oneDecimal = new Intl.NumberFormat('uk-UA', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('uk-UA', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A file's size as a Ukrainian reader writes it, with a decimal comma: '0,2 МБ', '1,25 ГБ'. */
export function fileSize(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${twoDecimals.format(bytes / 1024 ** 3)} ГБ` : `${oneDecimal.format(bytes / 1024 ** 2)} МБ`;
}

export const nouns = {
  characters: ['символ', 'символи', 'символів'],
  posts: ['публікація', 'публікації', 'публікацій'],
  postsShown: ['публікацію', 'публікації', 'публікацій'],
  uploads: ['завантаження', 'завантаження', 'завантажень'],
  creationRequests: ['запит', 'запити', 'запитів'],
  views: ['перегляд', 'перегляди', 'переглядів'],
  newViews: ['новий перегляд', 'нові перегляди', 'нових переглядів'],
  unread: ['непрочитане', 'непрочитані', 'непрочитаних'],
  tagSets: ['набору', 'наборів', 'наборів'],
  days: ['день', 'дні', 'днів'],
  pixels: ['піксель', 'пікселі', 'пікселів'],
  megapixels: ['мегапіксель', 'мегапікселі', 'мегапікселів'],
  bytes: ['байт', 'байти', 'байтів'],
  postsOut: ['публікація вийшла', 'публікації вийшли', 'публікацій вийшло'],
  postsFailed: ['публікація не вдалася', 'публікації не вдалися', 'публікацій не вдалося'],
  postsHeld: ['публікація утримана', 'публікації утримані', 'публікацій утримано'],
  /** The same, after the noun was said once: '5 публікацій вийшло, 1 не вдалася'. */
  out: ['вийшла', 'вийшли', 'вийшло'],
  failed: ['не вдалася', 'не вдалися', 'не вдалося'],
  held: ['утримана', 'утримані', 'утримано'],
} satisfies Record<string, [string, string, string]>;

/** A set's posts by state as the bell tells them: the first count with its noun, the rest after it, none that is 0. */
function setPostCounts(posts: { published: number; failed: number; held: number }): string {
  const said = (
    [
      [posts.published, nouns.postsOut, nouns.out],
      [posts.failed, nouns.postsFailed, nouns.failed],
      [posts.held, nouns.postsHeld, nouns.held],
    ] as const
  ).filter(([count]) => count > 0);
  return said.map(([count, first, next], index) => counted(count, index === 0 ? first : next)).join(', ');
}

export const t = {
  app: {
    logo: 'Shorts Office',
    notifications: 'Сповіщення',
    noNotifications: 'Немає повідомлень',
    toggleMenu: 'Згорнути або розгорнути меню',
    skipToContent: 'Перейти до вмісту',
    openMenu: 'Відкрити меню',
    closeMenu: 'Закрити меню',
    settings: 'Налаштування',
    logout: 'Вийти',
    notFoundTitle: '404',
    notFoundText: 'Сторінку не знайдено',
    toHome: 'На головну',
    loading: 'Завантаження',
    nothingFound: 'Нічого не знайдено',
    notFoundOption: 'Не знайдено',
    save: 'Зберегти',
    create: 'Створити',
    delete: 'Видалити',
    previousPage: 'Попередня сторінка',
    nextPage: 'Наступна сторінка',
    pagination: 'Сторінки',
    table: 'Таблиця',
  },
  menu: {
    accounts: 'Профілі',
    accountsList: 'Профілі',
    accountGroups: 'Групи профілів',
    video: 'Відео',
    published: 'Публікації',
    requests: 'Запити на створення',
    photos: 'Зображення',
    tags: 'Набори тегів',
    users: 'Користувачі',
    settings: 'Налаштування',
    stats: 'Статистика',
  },
  /** The home screen (/): today's posts, the profiles that need attention, a new account's first steps. */
  home: {
    title: 'Головна',
    today: (day: string) => `Сьогодні ${day}, за київським часом`,
    retry: 'Спробувати ще раз',
    postsTitle: 'Публікації сьогодні',
    postsTotal: (count: number) => `Усього ${count} ${plural(count, ['публікація', 'публікації', 'публікацій'])}`,
    noPosts: 'На сьогодні публікацій немає.',
    publishReady: 'Опублікувати готовий запит',
    stateHints: {
      scheduled: 'вийдуть у свій час',
      published: 'уже на платформах',
      held: 'чекають ліміту, квоти або нового підключення',
      failed: 'опублікуйте знову або змініть профіль',
    },
    attentionTitle: 'Профілі, що потребують уваги',
    attentionNone: 'Доступ усіх профілів до платформ працює.',
    attentionCount: (count: number) =>
      `${count} ${plural(count, ['профіль потребує', 'профілі потребують', 'профілів потребують'])} нового підключення`,
    accessFailed: (platforms: string) => `не працює доступ до ${platforms}`,
    owner: (login: string) => `оператор ${login}`,
    attentionMore: (count: number) => `Ще ${count} ${plural(count, ['профіль', 'профілі', 'профілів'])} у списку профілів`,
    stepsTitle: 'Перші кроки',
    stepsLeft: (count: number) => plural(count, [`Залишився ${count} крок`, `Залишилося ${count} кроки`, `Залишилося ${count} кроків`]),
    stepDone: 'Зроблено',
    stepToDo: 'Ще не зроблено',
    steps: {
      profile: {
        title: 'Додайте профіль',
        text: 'Профіль — це акаунт у соцмережах зі своїм проксі: через нього відео виходять на платформи.',
        link: 'Додати профіль',
      },
      connect: {
        title: 'Підключіть профіль',
        text: 'Відкрийте профіль і підключіть його до YouTube, TikTok або Instagram.',
        link: 'До профілів',
      },
      backgrounds: {
        title: 'Завантажте фонові зображення',
        text: 'На них накладається відео; без них фоном стане розмита копія самого кліпу.',
        link: 'Завантажити зображення',
      },
      video: {
        title: 'Створіть відео',
        text: 'Завантажте кліп і вкажіть, скільки відео з нього створити; готові відео публікуються зі списку запитів.',
        link: 'Створити відео',
      },
    },
  },
  login: {
    title: 'Вхід',
    sessionEnded: 'Сесію завершено, увійдіть знову',
    login: 'Логін',
    password: 'Пароль',
    submit: 'Увійти',
  },
  settings: {
    title: 'Налаштування',
    account: 'Обліковий запис',
    login: 'Логін',
    role: 'Роль',
    roleAdmin: 'Адміністратор',
    roleUser: 'Оператор',
    timezone: 'Часовий пояс',
    timezoneValue: 'Київ, 24-годинний формат',
    changePassword: 'Зміна пароля',
    currentPassword: 'Поточний пароль',
    submitPassword: 'Змінити пароль',
    passwordChanged: 'Пароль змінено. Інші сесії завершено.',
  },
  passwordFields: {
    password: 'Новий пароль',
    confirmation: 'Повторіть пароль',
  },
  /** Personal API tokens (issue 32.4), Settings → API-токени. */
  apiTokens: {
    title: 'API-токени',
    settingsLink: 'API-токени для скриптів',
    settingsHint: 'Токени дають скриптам і автоматизаціям доступ до API від вашого імені.',
    intro:
      'Токен дає скриптам і автоматизаціям доступ до API від вашого імені. Надсилайте його в заголовку Authorization: Bearer. Опис API — за адресою /api/docs, з тим самим заголовком.',
    createTitle: 'Новий токен',
    name: 'Назва',
    nameHint: 'Для чого токен, наприклад «звіти щоранку»',
    scope: 'Права',
    scopes: { read: 'Читання', publish: 'Публікація', admin: 'Адміністратор' },
    scopeHints: {
      read: 'Лише перегляд: списки, статуси, статистика',
      publish: 'Усе, що може оператор: запити, публікації, профілі',
      admin: 'Усе, зокрема керування користувачами',
    },
    expiry: 'Строк дії',
    expiryOption: (days: number) => counted(days, nouns.days),
    submit: 'Створити токен',
    created: 'Токен створено',
    newTokenTitle: (name: string) => `Токен «${name}»`,
    newTokenWarning: 'Скопіюйте токен зараз: його показано лише один раз, і відновити його не можна.',
    newTokenLabel: 'Новий токен',
    copy: 'Копіювати',
    copied: 'Токен скопійовано',
    copyFailed: 'Не вдалося скопіювати: виділіть токен і скопіюйте вручну',
    hide: 'Я зберіг токен',
    listTitle: 'Ваші токени',
    columnName: 'Назва',
    columnScope: 'Права',
    columnExpires: 'Діє до',
    columnLastUsed: 'Останнє використання',
    neverUsed: 'Ще не використовувався',
    expired: 'строк минув',
    revoke: 'Відкликати',
    revokeLabel: (name: string) => `Відкликати токен «${name}»`,
    revokeConsequence: 'Скрипти з цим токеном одразу втратять доступ. Скасувати це не можна.',
    revoked: 'Токен відкликано',
    revokeFailed: 'Не вдалося відкликати токен',
    reload: 'Завантажити ще раз',
    nameRequired: 'Вкажіть назву токена',
    scopeRequired: 'Оберіть права токена',
    scopeAboveRole: 'Оператор не може створити токен адміністратора',
    expiryRange: (max: number) => `Строк дії: від 1 до ${counted(max, nouns.days)}`,
  },
  dates: {
    kyivTime: '(за київським часом)',
    day: (label: string) => `${label}: день`,
    hour: (label: string) => `${label}: година`,
    minute: (label: string) => `${label}: хвилина`,
    noTime: '--',
    dayPlaceholder: 'дд.мм.рррр',
    dayFormat: 'Введіть дату як дд.мм.рррр',
    openCalendar: (label: string) => `${label}: вибрати день у календарі`,
    calendar: (label: string) => `${label}: календар`,
  },
  confirm: {
    cancel: 'Скасувати',
    question: (label: string) => `${label}?`,
    accountConsequence:
      'Відео, вже опубліковані через цей профіль, залишаться на платформах і в списках, але без профілю; запланованих через нього публікацій не буде.',
    groupConsequence: 'Профілі групи залишаться, лише вийдуть із неї.',
    tagSetConsequence: 'Видаляється лише набір тегів: теги вже опублікованих відео не зміняться.',
    photoConsequence: 'Вже створені на цьому фоні відео залишаться; нові запити його не використовуватимуть.',
    userConsequence: 'Разом з користувачем буде видалено його профілі, групи, теги, зображення та відео.',
  },
  validation: {
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
  },
  toast: {
    authorized: 'Ви увійшли',
    loggedOut: 'Ви вийшли із системи',
    loading: 'Завантаження ...',
    genericError: 'Сталася помилка',
    /** fetch() refused: no answer came (offline, server down); the browser's own words are English. */
    connectionLost: 'Немає звʼязку із сервером: перевірте мережу й спробуйте ще раз',
    /** An answer that is not the API's JSON (a proxy's error page): its status line is English. */
    serverError: (status: number) => `Сервер не зміг відповісти (код ${status}): спробуйте ще раз`,
    deleting: 'Видалення ...',
    deleteFailed: 'Помилка при видаленні',
  },
  accounts: {
    listTitle: 'Профілі',
    createTitle: 'Створити профіль',
    /** A profile's page is headed by its name (src/lib/profile-name.ts) with its number beside it. */
    editTitle: (id: number, name = '') => (name ? `${name} · #${id}` : `Профіль #${id}`),
    columnId: 'ID',
    columnProxy: 'Проксі',
    columnComment: 'Коментар',
    columnUser: 'Користувач',
    columnStatus: 'Статус',
    platformOff: 'Вимкнено',
    platformConnected: 'Підключено',
    platformWaiting: 'Не підключено',
    connectedAs: (name: string) => `підключено як ${name}`,
    deleteLabel: (id: number) => `Видалити профіль #${id}`,
    created: 'Профіль створено',
    updated: 'Профіль змінено',
    deleted: 'Акаунт видалено',
    optionTitle: (id: number, label: string) => (label ? `#${id} ${label}` : `#${id}`),
  },
  accountForm: {
    secretsUnreadable: 'Не вдалося розшифрувати секрети профілю: ключ сервера SECRET_KEY змінився',
    proxy: 'Проксі',
    proxyHint: 'Формат: хост:порт, хост:порт:логін:пароль, логін:пароль@хост:порт або http://, https://, socks5://, socks5h://…',
    sandboxProxy: (url: string) => `Пісочниця приймає проксі ${url}`,
    useSandboxProxy: 'Вписати проксі пісочниці',
    typedTikTok: 'Вставити рядок доступу',
    typedInstagram: 'Ввести дані входу',
    ipVersion: 'Версія IP',
    ipVersions: { ipv4: 'IPv4', ipv6: 'IPv6' },
    comments: 'Коментар',
    platforms: 'Платформи',
    youtube: 'YouTube',
    instagram: 'Instagram',
    tiktok: 'TikTok',
    clientId: 'ID клієнта',
    clientSecret: 'Секрет клієнта',
    youtubeLogin: 'Логін YouTube',
    youtubePassword: 'Пароль YouTube',
    instagramLogin: 'Логін Instagram',
    instagramPassword: 'Пароль Instagram',
    instagramAccessToken: 'Токен доступу Instagram (у робочому режимі)',
    instagramUserId: 'ID акаунта Instagram (у робочому режимі)',
    tiktokAuthStr: 'Рядок доступу TikTok',
    owner: 'Власник',
    group: 'Група',
    status: 'Статус',
    copyLink: 'Скопіювати посилання авторизації',
    linkCopied: 'Посилання скопійоване в буфер обміну',
    linkCopyFailed: 'Помилка при копіюванні посилання',
    proxyRequired: "Проксі обов'язковий",
    proxyInvalid:
      'Проксі не розпізнано. Впишіть хост:порт, хост:порт:логін:пароль, логін:пароль@хост:порт або адресу зі схемою http://, https://, socks5:// чи socks5h:// (порт від 1 до 65535)',
    clientIdRequired: "ID клієнта обов'язковий",
    clientSecretRequired: "Секрет клієнта обов'язковий",
    tiktokRequired: "Рядок доступу TikTok обов'язковий",
    instagramLoginRequired: "Логін Instagram обов'язковий",
    instagramPasswordRequired: "Пароль Instagram обов'язковий",
    ipVersionInvalid: 'Версія IP має бути IPv4 або IPv6',
    channelPanel: 'Канал YouTube',
    channelLink: 'Відкрити канал',
    channelDescription: 'Опис каналу',
    descriptionRequired: "Опис обов'язковий",
    descriptionUpdated: 'Опис змінено',
    instagramPanel: 'Профіль Instagram',
    instagramLink: 'Відкрити профіль',
    profileName: 'Назва профілю',
    profileDescription: 'Опис профілю',
    nameRequired: "Назва обов'язкова",
    videosPanel: 'Відео профілю',
    secretSaved: 'збережено',
    proxyPasswordSaved: 'Пароль проксі збережено; впишіть проксі з паролем, щоб замінити його',
  },
  connections: {
    /** Live mode without the installation's app credentials for the platform. */
    appMissing: (platform: string, variables: string) => `${platform} не налаштовано на сервері: задайте ${variables}`,
    connect: (platform: string) => `Підключити ${platform}`,
    connectFailed: (platform: string) => `Не вдалося відкрити сторінку дозволу ${platform}: спробуйте ще раз`,
    reconnect: 'Підключіть знову',
    connectedAs: (name: string) => `Підключено як ${name}`,
    connected: 'Підключено',
    notConnected: 'Не підключено',
    /** A new profile's platform: its connect button saves the profile on the way. */
    savedOnConnect: 'Не підключено; профіль збережеться перед підключенням',
    /** What a YouTube profile brings in place of the installation's app: its own Google client. */
    youtubeAppFields: 'ID клієнта і секрет клієнта профілю',
    revoked: (platform: string) => `Доступ ${platform} відкликано — підключіть профіль знову`,
    ending: (platform: string, days: number) =>
      `Доступ ${platform} закінчується через ${counted(days, nouns.days)} — підключіть профіль знову`,
    pastedLeft: (left: string) => `Рядок доступу TikTok діє ще ${left}`,
    pastedExpired: 'Рядок доступу TikTok закінчився — підключіть TikTok',
    hours: (hours: number, minutes: number) => (hours > 0 ? `${hours} год ${minutes} хв` : `${minutes} хв`),
    days: (days: number) => counted(days, nouns.days),
    platformConnected: (platform: string) => `${platform} підключено`,
    /** The channel or profile name the sandbox's YouTube and Instagram give an account it emulates. */
    sandboxAccount: (label: string) => `Тестовий акаунт ${label}`,
    /** The bell's title of a grant nearing its end, named as the truth branch names profiles. */
    credentialsEnding: (profile: string) => `Профіль ${profile}: доступ до платформи скоро закінчиться`,
  },
  groups: {
    listTitle: 'Групи профілів',
    createTitle: 'Створити групу',
    editTitle: (name: string) => `Група: ${name}`,
    columnId: 'ID',
    columnName: 'Назва',
    name: 'Назва',
    accounts: 'Профілі',
    accountsPlaceholder: 'Оберіть профілі',
    accountsMin: 'Мінімум один профіль',
    accountNotFound: (id: number) => `Профіль #${id} не знайдено`,
    accountInOtherGroup: (id: number) => `Профіль #${id} вже входить до іншої групи`,
    deleteLabel: (name: string) => `Видалити групу ${name}`,
    created: 'Групу створено',
    updated: 'Групу змінено',
    deleted: 'Групу видалено',
  },
  postingSlots: {
    title: 'Слоти публікацій',
    hint: 'Київський час. Між двома публікаціями профілю минає щонайменше вказаний проміжок.',
    from: 'Публікувати з',
    to: 'Публікувати до',
    minGap: 'Проміжок, хв',
    days: 'Дні публікацій',
    dayNames: ['Понеділок', 'Вівторок', 'Середа', 'Четвер', 'Пʼятниця', 'Субота', 'Неділя'],
    fromInvalid: 'Початок: час ГГ:ХХ, хвилини кратні 5',
    toInvalid: 'Кінець: час ГГ:ХХ, хвилини кратні 5',
    toNotAfterFrom: 'Кінець має бути пізніше за початок',
    gapInvalid: 'Проміжок: ціле число хвилин від 0 до 1440',
    daysRequired: 'Дні: оберіть хоча б один день',
    daysInvalid: 'Дні: номери від 1 (понеділок) до 7 (неділя), кожен один раз',
    /** Where the slots shown come from. */
    sources: {
      profile: 'Власні слоти профілю',
      group: (name: string) => `З групи «${name}»`,
      groupOwn: 'Власні слоти групи, типові для її профілів',
      installation: 'Типові',
    },
    save: 'Зберегти слоти',
    clearProfile: 'Брати слоти з групи або типові',
    clearGroup: 'Повернути типові',
    saved: 'Слоти збережено',
    cleared: 'Власні слоти прибрано',
  },
  tagSets: {
    listTitle: 'Набори тегів',
    createTitle: 'Створити набір тегів',
    editTitle: (name: string) => `Набір тегів: ${name}`,
    columnId: 'ID',
    columnName: 'Назва',
    columnTags: 'Теги',
    name: 'Назва',
    tags: 'Теги',
    tagsMin: 'Мінімум один тег',
    deleteLabel: (name: string) => `Видалити набір тегів ${name}`,
    created: 'Набір тегів створено',
    updated: 'Набір тегів змінено',
    deleted: 'Набір тегів видалено',
  },
  users: {
    listTitle: 'Користувачі',
    createTitle: 'Створити користувача',
    editTitle: (login: string) => `Користувач: ${login}`,
    columnId: 'ID',
    columnLogin: 'Логін',
    columnVideos: 'Відео',
    columnAccounts: 'Профілі',
    adminBadge: 'Адміністратор',
    login: 'Логін',
    passwordsMismatch: 'Паролі не збігаються',
    /** The admin's own record: its password changes only with the current one (POST /api/auth/password), also the server's refusal. */
    ownPasswordInSettings: 'Свій пароль змінюйте в налаштуваннях: там потрібен поточний пароль',
    ownPasswordLink: 'Змінити свій пароль',
    deleteLabel: (login: string) => `Видалити користувача ${login}`,
    accountsPanel: 'Профілі користувача',
    videosPanel: 'Відео користувача',
    created: 'Користувача створено',
    updated: 'Користувача змінено',
    deleted: 'Користувача видалено',
  },
  stats: {
    panel: 'Статистика',
    chart: 'Перегляди за період',
    period: 'Період',
    periods: { 1: 'Доба', 7: '7 днів', 30: '30 днів', 90: '90 днів' },
    empty: 'Статистики ще немає: вона зʼявиться після першої синхронізації опублікованих відео',
    chartLoading: 'Завантаження графіка',
    syncedAt: (date: string) => `Синхронізовано ${date}`,
    byPlatform: 'За платформами',
    byProfile: 'За профілями',
    columnPlatform: 'Платформа',
    columnProfile: 'Профіль',
    columnPosts: 'Публікації',
    deletedProfile: 'Профіль видалено',
    showTable: 'Показати таблицею',
    hideTable: 'Сховати таблицю',
  },
  /** The statistics screen (/stats): the top videos of a period and the CSV export of its figures. */
  statsScreen: {
    title: 'Статистика',
    from: 'Початок періоду',
    to: 'Кінець періоду',
    scope: 'Профіль або група',
    allProfiles: 'Усі профілі',
    profiles: 'Профілі',
    groups: 'Групи',
    platform: 'Платформа',
    allPlatforms: 'Усі платформи',
    show: 'Показати',
    dateRequired: 'Вкажіть день',
    dateInvalid: 'Некоректна дата: потрібен день як дд.мм.рррр',
    rangeReversed: 'Кінець періоду раніше за його початок',
    rangeTooLong: (days: number) => `Період задовгий: щонайбільше ${counted(days, nouns.days)}`,
    top: 'Топ відео',
    topPeriod: (from: string, to: string) => `За переглядами, набраними з ${from} по ${to} (за київським часом)`,
    topEmpty: 'За цей період відео не набрали переглядів',
    videoTitle: (title: string, number: number) => `${title || 'Публікація без назви'} · відео ${number}`,
    columnRank: '№',
    columnVideo: 'Відео',
    columnProfile: 'Профіль',
    columnPlatforms: 'Платформи',
    columnGained: 'Нові перегляди',
    columnViews: 'Усього переглядів',
    exportOpen: 'Експорт CSV',
    exportTitle: 'Експорт статистики в CSV',
    exportText:
      'Рядок на кожну публікацію й день: перегляди, вподобання й коментарі на кінець дня за київським часом. Файл відкривається в Excel і LibreOffice.',
    exportSubmit: 'Завантажити CSV',
    exportRunning: 'Готуємо файл…',
    exportDone: 'Файл статистики завантажено',
    /** The CSV's header row, column by column. */
    columns: {
      day: 'Дата',
      profile: 'Профіль',
      platform: 'Платформа',
      video: 'Відео',
      videoId: 'ID відео',
      link: 'Посилання',
      views: 'Перегляди',
      likes: 'Вподобання',
      comments: 'Коментарі',
      gained: 'Нові перегляди за день',
    },
    /** The overview of the period (issue 40.6): totals per platform, the daily chart, the profiles ranked. */
    period: (from: string, to: string) => `З ${from} по ${to} за київським часом`,
    totals: 'Підсумки періоду',
    allPlatformsTotal: 'Усі платформи разом',
    figure: (value: number) => numbers.format(value),
    newViews: (count: number) => plural(count, nouns.newViews),
    newLikes: 'Нові вподобання',
    newComments: 'Нові коментарі',
    postsPublished: 'Опубліковано за період',
    overviewEmpty:
      'За цей період немає ні нових переглядів, ні публікацій. Оберіть інший період чи профіль; цифри зʼявляються після синхронізації опублікованих відео.',
    chart: 'Нові перегляди за днями',
    chartPeriodTotal: 'Разом за період',
    chartGained: (platform: string, count: number) => `${platform}: ${counted(count, nouns.newViews)}`,
    profilesTitle: 'Профілі за новими переглядами',
    profilesEmpty: 'За цей період профілі не набрали переглядів',
    columnDay: 'День',
    columnPostsWithFigures: 'Публікацій із цифрами',
    exportPageFilters: 'Буде експортовано те, що показує сторінка:',
    exportChange: 'Змінити період чи профіль',
  },
  calendar: {
    title: 'Календар',
    week: 'Тиждень',
    month: 'Місяць',
    view: 'Вигляд',
    previous: 'Попередній період',
    next: 'Наступний період',
    today: 'Сьогодні',
    profile: 'Профіль або група',
    allProfiles: 'Усі профілі',
    groups: 'Групи',
    profiles: 'Профілі',
    /** A group picked that has no posts in the period, by its number. */
    groupOption: (id: number) => `Група #${id}`,
    empty: 'У цьому періоді публікацій немає',
    truncated: (count: number) => `Показано ${counted(count, nouns.postsShown)} періоду — перші за часом`,
    badRange: 'Некоректний період календаря',
    weekdays: ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Нд'],
    more: (count: number) => `ще ${count}`,
    untitled: 'без назви',
    postLabel: (time: string, platform: string, title: string, profile: string, status: string) =>
      `${time} ${platform}: ${title}, ${profile}, ${status}`,
    /**
     * The mark of a pending post that waits, by why it waits (src/lib/post-waits.ts): held ('Утримано')
     * on a cap, a quota or a new connection; a retry after a failed attempt is not held, it is tried again.
     */
    waitMarks: {
      retry: 'Повторна спроба',
      busy: 'Черга профілю',
      quota: 'Утримано: квота',
      cap: 'Утримано: ліміт',
      reconnect: 'Утримано: підключення',
    },
    waiting: (mark: string, reason: string) => `${mark} — ${reason}`,
    /** A phone's month cell: the day and how many posts it has; the day's list opens under the month. */
    dayPosts: (day: string, count: number) => `${day}: ${counted(count, nouns.posts)}`,
    dayList: (day: string) => `Публікації за ${day}`,
    /** The one profile shown: the hours it posts on its days, and its days off (server/services/planning/posting-slots.ts). */
    postingHours: (from: string, to: string) => `слоти ${from}–${to}`,
    dayOff: 'не публікує',
    hint: 'Заплановану публікацію можна перетягнути на інший день: час лишиться той самий, а публікації того самого відео на інших платформах — на своїх місцях.',
    /** A scheduled post's handle, said with the post (its label). */
    moveHandle: (post: string) => `Перенести ${post}`,
    cancelPost: (post: string) => `Скасувати публікацію ${post}`,
    dragRole: 'публікація, яку можна перенести',
    /** dnd-kit's screen reader instructions and announcements (calendar-screen.tsx). */
    dragInstructions:
      'Щоб узяти публікацію, натисніть пробіл. Стрілки переносять її на день раніше чи пізніше, а в місяці стрілки вгору і вниз — на тиждень. Пробіл ще раз кладе її на вибраний день о тій самій годині, клавіша Esc скасовує перенесення.',
    pickedUp: (post: string, day: string) => `Узято ${post}, зараз ${day}`,
    over: (post: string, day: string) => `${post}: над днем ${day}`,
    outside: (post: string) => `${post}: поза днями календаря`,
    dropped: (post: string, day: string, time: string) => `${post} покладено на ${day} о ${time}, переносимо`,
    droppedHome: (post: string) => `${post} лишилася на своєму дні`,
    dragCancelled: (post: string) => `Перенесення скасовано, ${post} лишилася на місці`,
    moved: (day: string, time: string) => `Публікацію перенесено на ${day} о ${time}`,
  },
  /** Issue 40.1 and 40.5: the calendar's cancel of one post (or of all its video's), and what each post says. */
  calendarPosts: {
    cancelQuestion: (id: number, platform: string) => `Скасувати публікацію відео #${id} в ${platform}?`,
    /** What the cancel takes, as the dialog lists it. */
    video: 'Відео',
    platform: 'Платформа',
    profile: 'Профіль',
    time: 'Час',
    videoTitle: (id: number, title: string) => (title ? `#${id} «${title}»` : `#${id}`),
    /** Another post of the same video, as the dialog names it: 'TikTok, 02.12.2026 10:00, заплановано'. */
    otherPost: (platform: string, time: string, state: string) => `${platform}, ${time}, ${state.toLowerCase()}`,
    othersStay: (posts: string) => `Публікації відео на інших платформах залишаться: ${posts}.`,
    othersWithAll: 'Кнопка «Скасувати всі платформи відео» скасує й їх.',
    undoFor: (seconds: number) => `Скасоване можна повернути ще ${counted(seconds, ['секунду', 'секунди', 'секунд'])}.`,
    cancelPost: (platform: string) => `Скасувати публікацію в ${platform}`,
    cancelAll: 'Скасувати всі платформи відео',
    cancelledPost: (id: number, platform: string) => `Публікацію відео #${id} в ${platform} скасовано`,
    undoPostOf: (id: number, platform: string) => `Повернути публікацію відео #${id} в ${platform}`,
    legend: 'Позначення',
  },
  notifications: {
    bell: (unread: number) => (unread > 0 ? `Сповіщення: ${counted(unread, nouns.unread)}` : 'Сповіщення'),
    markAllRead: 'Позначити всі прочитаними',
    /** Named by the request's title, else its source file (issue 40.7: five alike lines named nothing). */
    renderDone: (name: string) => (name ? `Запит «${name}»: відео створено, можна публікувати` : 'Відео створено, можна публікувати'),
    renderFailed: (name: string) => (name ? `Запит «${name}»: не вдалося створити відео` : 'Не вдалося створити відео'),
    /** One entry per set: '…: 5 публікацій вийшло, 1 не вдалася, 2 утримані' (held: waiting for a cap, a quota or a new connection). */
    setPosts: (title: string, posts: { published: number; failed: number; held: number }) =>
      `${title ? `Набір «${title}»` : 'Набір без назви'}: ${setPostCounts(posts)}`,
    accessRevoked: (profile: string, platform: string) => `Профіль ${profile}: доступ ${platform} відкликано — підключіть профіль знову`,
    accessRefused: (profile: string, platform: string) => `Профіль ${profile}: ${platform} відмовляє в доступі — перевірте профіль`,
    /** The message of a sign-in spray names the login being guessed (server/auth/login-throttle.ts). */
    signInSpray: (login: string) => `Логін «${login}»: пароль підбирають з багатьох адрес, вхід з нових браузерів сповільнено`,
    unread: 'Нове',
  },
  videoTable: {
    columnId: 'ID',
    columnDate: 'Дата',
    columnAccount: 'Профіль',
    columnLinks: 'Посилання',
    columnStats: 'Статистика',
    columnStatus: 'Статус',
    youtube: 'YouTube',
    instagram: 'Instagram',
    tiktok: 'TikTok',
    views: 'Перегляди',
    likes: 'Вподобання',
    comments: 'Коментарі',
    statLabel: (name: string, platform: string, value: number) => `${name} ${platform}: ${value}`,
  },
  controls: {
    tagPlaceholder: 'Введіть тег',
    removeTag: (tag: string) => `Видалити тег ${tag}`,
    removeOption: (title: string) => `Прибрати ${title}`,
  },
  filters: {
    search: 'Пошук',
    searchRequests: 'Назва файлу або ID',
    searchSets: 'Назва, файл або ID',
    searchProfiles: 'Коментар, проксі або акаунт',
    find: 'Знайти',
    status: 'Статус',
    platform: 'Платформа',
    any: 'Усі',
    reset: 'Скинути фільтри',
    published: 'Опубліковано',
  },
  /** A post's one state (src/lib/post-states.ts), on every screen that names it. */
  postStates: {
    scheduled: 'Заплановано',
    uploading: 'Публікується',
    published: 'Опубліковано',
    held: 'Утримано',
    failed: 'Помилка',
    cancelled: 'Скасовано',
  },
  /** Issue 40.2: a video's posts, a badge per platform, and a set's posts by state. */
  postBadges: {
    list: 'Публікації на платформах',
    badge: (platform: string, state: string) => `${platform}: ${state.toLocaleLowerCase('uk')}`,
    publishedAt: (date: string) => `вийшло ${date}`,
    /** The published list's column of the posts' own dates, with when the set was sent under them. */
    column: 'Дати публікацій',
    sentAt: (date: string) => `надіслано ${date}`,
    plannedAt: (date: string) => `заплановано на ${date}`,
    /** Null when every post went out (the status says so) or there are none. */
    setCounts: (posts: { published: number; scheduled: number; held: number; failed: number }): string | null => {
      const total = posts.published + posts.scheduled + posts.held + posts.failed;
      if (!(total > 0) || posts.published === total) return null;
      const rest = (
        [
          [posts.failed, 'з помилкою'],
          [posts.held, 'утримано'],
          [posts.scheduled, 'заплановано'],
        ] as const
      )
        .filter(([count]) => count > 0)
        .map(([count, label]) => `, ${label} — ${count}`)
        .join('');
      return posts.published > 0 ? `Частково: вийшло ${posts.published} з ${total}${rest}` : `Вийшло 0 з ${total}${rest}`;
    },
  },
  /** SPEC's drafts said 'Не активний' of a video never sent, 'В обробці' of one being made (issue 40.7), as of a request. */
  videoStatus: {
    loading: 'Створюється',
    publication: 'На публікації',
    success: 'Опубліковано',
    error: 'Помилка',
    noactive: 'Не опубліковано',
    cancelled: 'Скасовано',
  },
  /** A profile's: 'loading' while a platform switched on is not connected yet, 'noactive' with none switched on. */
  accountStatus: {
    publication: 'На публікації',
    loading: 'Очікує підключення',
    success: 'Активний',
    error: 'Помилка',
    noactive: 'Без платформ',
  },
  /** Issues 32.1, 39.5: the one state of a profile's connection to a platform (connection_states), whichever path learnt it. */
  health: {
    column: 'Стан',
    states: { connected: 'Працює', attention: 'Увага', down: 'Не працює' },
    /** Why a platform is not 'connected', said after its state: 'Не працює: проксі не відповідає'. */
    kinds: {
      proxy_unreachable: 'проксі не відповідає',
      proxy_failed: 'проксі не зʼєднує з платформою',
      proxy_auth: 'проксі не прийняв логін або пароль',
      proxy_refused: 'проксі має внутрішню адресу, заборонену в робочому режимі',
      not_connected: 'не підключено',
      revoked: 'доступ відкликано — підключіть профіль знову',
      refused: 'платформа відмовляє в доступі',
      token_expired: 'токен доступу закінчився і не оновився',
      platform_unavailable: 'платформа не відповіла',
    },
    platformState: (platform: string, state: string) => `${platform}: ${state}`,
    stateWithReason: (state: string, reason: string) => `${state}: ${reason}`,
    checkedAt: (when: string) => `перевірено ${when}`,
    notChecked: 'ще не перевірено',
    /** The profile page's check, run at once (POST /api/accounts/{id}/health-check). */
    checkNow: 'Перевірити зараз',
    checking: 'Перевіряємо…',
    checked: 'Профіль перевірено',
    /** The platforms the quota ledger left unread keep the state they had. */
    checkedExcept: (platforms: string[]) =>
      `Профіль перевірено, крім ${platforms.join(', ')}: ліміт запитів до платформи вичерпано, показано попередній стан`,
    filterProblem: 'Проблемні',
    /** The bell: a profile that stopped working with a post due within a day. */
    unhealthy: (profile: string, platform: string | null, reason: string) =>
      `Профіль ${profile}${platform ? `, ${platform},` : ''} не працює: ${reason}. Є публікації на найближчу добу — перевірте профіль`,
  },
  /** Issue 32.2: reach shown, not guessed (server/services/statistics/reach.ts). */
  reach: {
    limited: 'Можливе обмеження показів',
    limitedOn: (platform: string) => `${platform}: можливе обмеження показів`,
    /** The figures behind a profile's mark: the last posts' views, newest first, against the median of the posts before. */
    limitedFigures: (views: number[], median: number, history: number) =>
      `Перегляди останніх публікацій (${views.length}): ${views.map((value) => numbers.format(value)).join(', ')}; медіана попередніх (${history}): ${numbers.format(median)}`,
    /** A post of such a mark on its set's page. */
    postLimited: (platform: string, views: number, median: number) =>
      `${platform}: можливе обмеження показів — ${counted(views, nouns.views)} при медіані профілю ${numbers.format(median)}`,
    postUnseen: (platform: string, hours: number) => `${platform}: жодного перегляду через ${hours} год після публікації`,
  },
  photos: {
    title: 'Зображення',
    add: 'Додати зображення',
    pickFiles: 'Обрати зображення',
    dropHint: 'Перетягніть зображення сюди',
    dropAccept: 'Відпустіть, щоб додати зображення',
    dropReject: 'Тут приймаються лише зображення',
    mustBeImage: 'Файл повинен бути зображенням',
    atLeastOne: 'Мінімум одне зображення',
    rejectedType: (name: string) => `Файл «${name}» має недопустимий формат. Файл має бути зображенням`,
    uploaded: 'Зображення завантажено',
    deleted: 'Зображення видалено',
    image: (id: number) => `Зображення ${id}`,
  },
  createVideo: {
    title: 'Створити відео',
    count: 'Кількість відео',
    countPlaceholder: 'Введіть кількість відео',
    countRequired: 'Вкажіть кількість відео',
    countRange: (max: number) => `Кількість відео має бути цілим числом від 1 до ${max}`,
    pickFile: 'Обрати відео',
    dropHint: 'Перетягніть відео сюди',
    dropAccept: 'Відпустіть, щоб додати відео',
    dropReject: 'Тут приймаються лише відео',
    dropLimit: (max: number) => `До ${max} відео за раз: кожне стане окремим запитом з тією самою кількістю та фонами`,
    atLeastOne: 'Мінімум одне відео',
    atMostOne: 'Максимум одне відео',
    mustBeVideo: 'Файл повинен бути відео',
    preview: 'Кадр на 1-й секунді',
    previewUnavailable: 'Браузер не може показати кадр цього відео',
    submit: 'Створити',
    sent: 'Запит на створення відео надіслано',
    sentSeveral: (count: number) => `Надіслано ${counted(count, nouns.creationRequests)} на створення відео`,
    tooManySources: (max: number) => `за один раз можна додати не більше ${max} відео`,
    sourceWaiting: 'Чекає на чергу',
    sourceSent: 'Надіслано',
    sourceProgress: (name: string) => `Завантаження ${name}`,
    sourceFailed: (name: string, reason: string) => `Файл «${name}» не завантажено: ${afterColon(reason)}`,
    retry: 'Надіслати ще раз',
    retryLabel: (name: string) => `Надіслати ще раз ${name}`,
    sourcesSent: (sent: number, total: number) => `Надіслано ${sent} з ${total}`,
    toRequests: 'До запитів на створення',
    backgrounds: 'Фонові зображення',
    backgroundsChosen: (chosen: number, total: number) => `Обрано ${chosen} з ${total}`,
    chooseAll: 'Обрати всі',
    chooseNone: 'Зняти всі',
    backgroundsRequired: 'Оберіть хоча б одне фонове зображення',
    backgroundsTooMany: (max: number) => `Забагато фонових зображень: максимум ${max}`,
    noBackgrounds: 'У вас ще немає фонових зображень: фоном стане розмита копія самого відео.',
    uploadBackgrounds: 'Завантажити зображення',
    reloadBackgrounds: 'Завантажити ще раз',
  },
  /** The create form's drop of several files: what a drag would take, and why a file was not. */
  sourceDrop: {
    files: 'Обрані файли',
    takes: (taken: number, dragged: number) =>
      `Буде прийнято ${numbers.format(taken)} з ${counted(dragged, ['файлу', 'файлів', 'файлів'])}`,
    notVideo: 'це не відео',
    checking: 'Сервер перевіряє файл',
  },
  requests: {
    title: 'Запити на створення',
    /** The column naming a request: its source file's name and its number (issue 40.7: it held no ID alone). */
    id: 'Запит',
    status: 'Статус',
    publish: 'Публікувати',
    openPublished: 'Переглянути',
    created: 'Створено',
    videos: 'Відео',
    create: 'Створити відео',
    delete: 'Видалити запит',
    deleteLabel: (name: string | null, id: number) => (name ? `Видалити запит «${name}»` : `Видалити запит #${id}`),
    deleteConsequence: (published: boolean) =>
      published
        ? 'Разом із запитом буде видалено його відео та їхню статистику. Уже опубліковані відео залишаться на платформах, заплановані публікації не відбудуться.'
        : 'Разом із запитом буде видалено його відео та їхні файли.',
    deleted: 'Запит видалено',
  },
  requestStatus: {
    loading: 'Створюється',
    success: 'Готово',
    error: 'Помилка',
  },
  upload: {
    rejected: (name: string, reason: string) => `Файл «${name}» не прийнято: ${afterColon(reason)}`,
    remove: (name: string) => `Прибрати ${name}`,
    progress: 'Завантаження файлів',
    fileInput: 'Вибір файлів',
    connectionLost: 'Зʼєднання перервано, файл не завантажено',
  },
  media: {
    renderFailed: 'Не вдалося створити відео',
    renderInterrupted: 'Створення відео перервано',
    backgroundsGone: 'Обрані фонові зображення видалено: створіть запит знову з іншими',
    diskFull: 'Диск заповнений: звільніть місце та повторіть',
  },
  publish: {
    title: 'Публікація',
    name: 'Назва',
    description: 'Опис',
    tags: 'Теги',
    accounts: 'Профілі',
    date: 'Дата',
    save: 'Зберегти',
    anyAccount: 'Будь-який',
    nameRequired: "Назва обов'язкова",
    videoMin: 'Мінімум одне відео',
    videoFieldMissing: (position: number, field: string) => `Відео ${position} у списку «video»: немає поля «${field}»`,
    videoFieldInvalid: (position: number, field: string) => `Відео ${position} у списку «video»: некоректне значення поля «${field}»`,
    sent: 'Відео надіслано на публікацію',
    platforms: 'Платформи',
    tagSets: 'Набори тегів',
    groups: 'Групи профілів',
    videos: 'Відео',
    /** A video of the request by its place in it (1, 2, …), as the form lists them: never its id, which counts every request's. */
    video: (number: number) => `Відео ${number}`,
    preview: (number: number) => `Переглянути відео ${number}`,
    removeVideo: (number: number) => `Прибрати відео ${number}`,
    videoAccount: (number: number) => `Профіль відео ${number}`,
    videoDate: (number: number) => `Дата відео ${number}`,
    noVideos: 'Усі відео прибрано',
    assignmentRule:
      'Відео по черзі отримують вибрані профілі: перше відео — перший профіль, друге — другий. «Будь-який» означає профіль за цією чергою; коли відео більше, ніж профілів, черга йде по колу.',
    assignedByRule: (title: string) => `Отримає ${title} — за чергою вибраних профілів`,
    assignedNone: 'Оберіть профілі: «Будь-який» бере профіль із вибраних',
    profilesIdle: (count: number, titles: string) =>
      `Профілів більше, ніж відео: ${count} з вибраних не ${plural(count, ['отримає', 'отримають', 'отримають'])} відео (${titles}).`,
    profilesShared: (count: number, titles: string) =>
      count === 1
        ? `Відео більше, ніж профілів: ${titles} отримає кілька відео.`
        : `Відео більше, ніж профілів: ${titles} отримають по кілька відео.`,
    notReady: 'Запит ще не готовий до публікації',
    alreadyPublished: 'Цей запит уже опубліковано. Змінити назву, опис і теги можна на сторінці публікації.',
    openPublished: 'Відкрити публікацію',
    pastDate: 'Дата вже минула: оберіть майбутній час',
    tooFarAhead: 'Дата задалека: публікацію можна запланувати щонайбільше на рік уперед',
  },
  published: {
    /** Every platform's sets, though SPEC's route is still /video/list. */
    title: 'Публікації',
    status: 'Статус',
    updated: 'Оновлено дані',
    republish: 'Опублікувати',
    noError: 'Причину не вказано',
    /** The set named by its request's number and when it was published, never by its UUID. */
    detailTitle: (id: number, publishedAt: string) =>
      publishedAt ? `Запит #${id}, надіслано на публікацію ${publishedAt}` : `Запит #${id}`,
    editPanel: 'Дані публікації',
    videosPanel: 'Відео',
    editReach: 'Куди дійдуть зміни',
    editReady: 'змінить назву, опис і теги вже опублікованих відео',
    editPending: (count: number) => `зміни надсилаються (відео: ${count})…`,
    editDone: (count: number) => `зміни внесено (відео: ${count})`,
    editFailed: (count: number) => `не вдалося змінити відео: ${count}`,
    editUnsupported: 'не змінюється через API: опубліковані відео зберігають попередні назву, опис і теги',
  },
  /** Issue 21: what a post's state says, its waits, and the per-video controls of a published set. */
  postTruth: {
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
  },
  spread: {
    action: 'Розподілити',
    title: 'Розподілити за слотами',
    hint: 'Кожне відео отримає профіль і слот у його години, з його проміжком і в межах лімітів платформ.',
    from: 'З дня',
    to: 'До дня',
    propose: 'Запропонувати дати',
    proposing: 'Підбираємо слоти…',
    fromInvalid: 'Початок: дата РРРР-ММ-ДД',
    toInvalid: 'Кінець: дата РРРР-ММ-ДД',
    toPast: 'Кінець уже минув',
    tooFarAhead: 'Кінець задалеко: розподілити можна щонайбільше на рік уперед',
    toBeforeFrom: 'Кінець не може бути раніше за початок',
    tooLong: (days: number) => `Щонайбільше ${counted(days, nouns.days)} за раз`,
    proposed: (placed: number) => `Запропоновано дати для ${placed} відео. Перегляньте й за потреби змініть їх перед збереженням.`,
    unplacedTitle: 'Не вмістилися',
    failed: 'Не вдалося підібрати дати',
    /** Issue 43.1: how the videos are placed over the days. */
    mode: 'Як розподілити',
    modeEven: 'Рівномірно',
    modeEvenHint: 'порівну на кожен день, у найкращі години профілю',
    modeSoonest: 'Якнайшвидше',
    modeSoonestHint: 'у найближчі вільні слоти',
    daysTitle: 'Публікацій на день',
    /** One day of the proposal: its date and each profile's count. */
    dayLine: (day: string, total: number, profiles: string) => `${day}: ${counted(total, nouns.posts)} — ${profiles}`,
    profileCount: (profile: string, posts: number) => `${profile} × ${posts}`,
    budgetDays: 'Дні плану',
    /** Issue 43.5: the first line of a refusal whose other lines are possible duplicates; the form and the calendar recognise it. */
    duplicatesFound: 'Можливі дублі, нічого не збережено. Щоб зберегти все одно, позначте «Все одно зберегти»',
    duplicatesTitle: 'Схоже на дублі',
    duplicatesHint: 'Перевірте дати й профілі. Якщо так і задумано, збережіть свідомо.',
    saveAnyway: 'Все одно зберегти',
    moveAnyway: 'Все одно перенести',
    moveDuplicateQuestion: 'Перенести, попри можливий дубль?',
    moveDuplicateConsequence: 'Профіль опублікує обидва відео так, як ви їх поставили.',
  },
  platform: {
    names: { youtube: 'YouTube', tiktok: 'TikTok', instagram: 'Instagram', facebook: 'Facebook' },
    // What a post's failure says, by its kind (src/lib/post-failures.ts): 'Платформа: …' before the platform's own words.
    networkFailed: 'Проксі або платформа недоступні',
    timedOut: 'Проксі або платформа не відповіли вчасно, повторимо пізніше',
    proxyUnreachable: 'Проксі профілю недоступний',
    proxyNotPublic: 'Проксі профілю має бути публічною адресою: локальні, приватні та службові адреси заборонені',
    proxyAuthFailed: 'Проксі не прийняв логін або пароль',
    rejected: 'Платформа відхилила запит',
    authRevoked: 'Доступ до акаунта відкликано або він недійсний, підключіть профіль знову',
    rateLimited: 'Платформа обмежила частоту запитів, повторимо пізніше',
    quotaExceeded: 'Вичерпано ліміт платформи, повторимо пізніше',
    unavailable: 'Платформа тимчасово недоступна',
    processingFailed: 'Платформа не змогла обробити відео',
    processingTimeout: 'Платформа ще обробляє відео, перевіримо пізніше',
    videoNotFound: 'Відео на платформі не знайдено',
    profileDeleted: 'Профіль видалено, публікація неможлива',
    notConnected: 'Профіль не підключено до платформи',
    instagramTokenMissing: 'Для публікації в Instagram потрібні токен доступу Facebook Login та ID професійного акаунта Instagram',
    fileMissing: 'Файл відео не знайдено',
    gaveUp: 'Публікацію не вдалося завершити після кількох спроб',
  },
  postingCaps: {
    /** A post held by a cap: never an error, it goes out when the window frees. */
    rollingHeld: (platform: string, limit: number, hours: number) =>
      `Ліміт ${platform}: ${counted(limit, nouns.posts)} за ${hours} год вичерпано`,
    youtubeHeld: (limit: number) =>
      `Ліміт YouTube: ${counted(limit, nouns.uploads)} на день для проєкту Google вичерпано (доба за тихоокеанським часом)`,
    platformHeld: (platform: string) => `Ліміт ${platform} вичерпано — так відповіла платформа`,
    budgetTitle: (day: string) => `Ліміти публікацій на ${day}`,
    budgetLoading: 'Рахуємо ліміти…',
    budgetFailed: 'Не вдалося прочитати ліміти публікацій',
    budgetUnknown: 'ліміт невідомий',
    budgetLine: (limit: number, used: number, planned: number, remaining: number) =>
      `лишилось ${remaining} з ${limit} (опубліковано ${used}, заплановано ${planned})`,
    budgetOver: (profile: string, platform: string, over: number) =>
      `Профіль ${profile}: план перевищує ліміт ${platform} на ${over}. Зайві публікації не пропадуть: вони чекатимуть і вийдуть, щойно ліміт звільниться.`,
  },
  screens: {
    untitledSet: 'Публікація без назви',
    deleteProfile: (name: string) => `Видалити профіль ${name}`,
    /** Issue 40.7: the platform's own answer (often English) waits behind this, never on the screen at once. */
    errorDetails: 'Подробиці',
    errorDetail: (detail: string) => `Відповідь платформи: ${detail}`,
    chartLatest: 'Зараз',
    leaveUnsaved: 'Зміни не збережено. Піти зі сторінки й втратити їх?',
    tagSetSearch: (count: number) => `Пошук серед ${counted(count, nouns.tagSets)}: назва або тег`,
    empty: {
      profiles: {
        text: 'Спершу додайте профіль: через профілі відео виходять на платформи.',
        link: 'Додати профіль',
        href: '/accounts/create',
      },
      groups: {
        text: 'Група збирає профілі, щоб обирати їх у публікації одним натиском.',
        link: 'Створити групу',
        href: '/accounts/group/create',
      },
      tagSets: { text: 'Набір тегів додається до публікації одним натиском.', link: 'Створити набір тегів', href: '/tags/create' },
      photos: { text: 'Спершу завантажте зображення: на них накладається відео.', link: 'Завантажити зображення', href: '/photos/create' },
      requests: { text: 'Спершу створіть відео з кліпу та зображень.', link: 'Створити відео', href: '/video/create' },
      published: {
        text: 'Тут зʼявляться опубліковані відео: опублікуйте готовий запит.',
        link: 'До запитів',
        href: '/video/request-create',
      },
      users: { text: 'Додайте оператора, щоб він міг публікувати через свої профілі.', link: 'Додати користувача', href: '/users/create' },
    },
    chartViews: (platform: string, views: number) => `${platform}: ${counted(views, nouns.views)}`,
  },
  postingRules: {
    title: 'Правила платформ',
    loading: 'Читаємо, що дозволяють платформи…',
    postingAs: (platform: string, name: string) => `${platform}: публікується як ${name}`,
    tiktokPrivacy: 'Хто може переглядати відео',
    choose: 'Оберіть…',
    privacyLevels: {
      PUBLIC_TO_EVERYONE: 'Усі',
      MUTUAL_FOLLOW_FRIENDS: 'Друзі',
      FOLLOWER_OF_CREATOR: 'Підписники',
      SELF_ONLY: 'Лише я',
    } as Record<string, string>,
    allowComment: 'Дозволити коментарі',
    allowDuet: 'Дозволити дуети',
    allowStitch: 'Дозволити Stitch (зшивання)',
    disabledByCreator: 'Вимкнено в налаштуваннях автора в TikTok',
    maxDuration: (seconds: number) => `Найдовше відео для цього автора: ${seconds} с`,
    commercial: 'Комерційний вміст',
    brandOrganic: 'Ваш бренд: ви рекламуєте себе або власну справу',
    brandContent: 'Брендований вміст: ви рекламуєте інший бренд або третю сторону',
    brandedPrivateHint: 'Брендований вміст не може бути приватним («Лише я»)',
    musicDeclaration: 'Публікуючи, ви погоджуєтеся з Підтвердженням використання музики TikTok.',
    brandedDeclaration: 'Публікуючи, ви погоджуєтеся з Політикою брендованого вмісту та Підтвердженням використання музики TikTok.',
    youtubePrivacy: 'Доступ до відео на YouTube',
    youtubeStatuses: { public: 'Відкритий', unlisted: 'За посиланням', private: 'Приватний' } as Record<string, string>,
    madeForKids: 'Чи створено відео для дітей?',
    madeForKidsYes: 'Так, створено для дітей',
    madeForKidsNo: 'Ні, не для дітей',
    category: 'Категорія YouTube',
    /** YouTube's assignable categories (src/lib/posting-rules/youtube.ts) by id, as YouTube names them in Ukrainian. */
    categories: {
      '1': 'Фільми й анімація',
      '2': 'Автомобілі й транспорт',
      '10': 'Музика',
      '15': 'Тварини',
      '17': 'Спорт',
      '19': 'Подорожі й події',
      '20': 'Ігри',
      '22': 'Люди та блоги',
      '23': 'Комедії',
      '24': 'Розваги',
      '25': 'Новини й політика',
      '26': 'Поради та стиль',
      '27': 'Освіта',
      '28': 'Наука й технології',
    } as Record<string, string>,
    shareToFeed: 'Показати Reels також у стрічці профілю',
    saveDefaults: 'Запамʼятати як типові для профілю',
    defaultsSaved: 'Типові налаштування профілю збережено',
    creatorUnavailable: (profile: string, reason: string) =>
      `TikTok: не вдалося прочитати налаштування автора профілю ${profile} (${reason})`,
    tiktokPrivacyRequired: (profile: string) => `TikTok: оберіть, хто може переглядати відео профілю ${profile}`,
    youtubeKidsRequired: (profile: string) => `YouTube: укажіть для профілю ${profile}, чи створено відео для дітей`,
    privacyNotOffered: (profile: string, level: string) => `TikTok не пропонує профілю ${profile} доступ «${level}»: оберіть інший`,
    brandedPrivate: 'TikTok: брендований вміст не може бути приватним («Лише я»)',
    tooLong: (platform: string, video: number, seconds: number, max: number) =>
      `${platform}: відео ${video} триває ${seconds} с, а приймається до ${max} с`,
    tooShort: (platform: string, video: number, seconds: number, min: number) =>
      `${platform}: відео ${video} триває ${seconds} с, а потрібно щонайменше ${min} с`,
    captionTooLong: (platform: string, length: number, max: number) =>
      `${platform}: підпис задовгий — ${counted(length, nouns.characters)}, максимум ${max}`,
    titleTooLong: (length: number, max: number) => `YouTube: назва задовга — ${counted(length, nouns.characters)}, максимум ${max}`,
    descriptionTooLong: (bytes: number, max: number) =>
      `YouTube: опис задовгий — ${counted(bytes, nouns.bytes)} у UTF-8 (літера кирилиці займає два), максимум ${max}`,
    tooManyHashtags: (count: number, max: number) =>
      `Instagram: забагато хештегів у підписі (назва, опис і теги разом) — ${count}, максимум ${max}`,
    angleBrackets: {
      title: 'YouTube: назва не може містити символи «<» і «>», приберіть їх',
      description: 'YouTube: опис не може містити символи «<» і «>», приберіть їх',
    },
    categoryNotAssignable: (categoryId: string) =>
      `YouTube: категорію «${categoryId}» не можна дати відео, оберіть одну із запропонованих у формі`,
    thumbOffsetBeyond: (video: number) => `Instagram: кадр обкладинки виходить за межі відео ${video}`,
    /** What the publish form says of the rules of a platform that offers no choice, from its descriptor's limits. */
    platformRules: {
      facebook: (limits: { minSeconds: number; maxSeconds: number; minFps: number; maxFps: number; dailyReels: number }) =>
        `Reels на сторінці: від ${limits.minSeconds} до ${limits.maxSeconds} с, від ${limits.minFps} до ${limits.maxFps} кадрів за секунду, вертикальний кадр 9:16 (кожен варіант рендериться як 1080×1920); щонайбільше ${counted(limits.dailyReels, nouns.posts)} на сторінку за 24 год`,
    },
    frameShape: (platform: string, video: number, frame: string, shape: string, least: string) =>
      `${platform}: відео ${video} має кадр ${frame}, а приймається кадр ${shape} щонайменше ${least}`,
    frameRate: (platform: string, video: number, fps: number, min: number, max: number) =>
      `${platform}: відео ${video} має ${fps} кадрів за секунду, а приймається від ${min} до ${max}`,
  },
  /** Issue 32.3: what a user can be told of, by its event name (src/lib/contract/lists.ts alertEvents). */
  alertEvents: {
    'post.failed': 'Публікація не вдалася',
    'post.held': 'Публікацію утримано лімітом',
    'post.published': 'Публікація вийшла',
    'profile.unhealthy': 'Профіль не працює',
    'grant.revoked': 'Профіль втратив доступ',
  } as Record<string, string>,
  telegram: {
    title: 'Telegram',
    intro: 'Сповіщення приходять у ваш чат із ботом Shorts Office.',
    unavailable: 'Telegram не налаштовано на сервері: адміністратор має задати TELEGRAM_BOT_TOKEN.',
    connect: 'Підключити Telegram',
    sendCode: (bot: string | null) => (bot ? `Надішліть цей код боту @${bot}:` : 'Надішліть цей код боту Shorts Office:'),
    code: 'Код підключення',
    openBot: 'Відкрити бота з кодом',
    codeValid: (time: string) => `Код дійсний до ${time}. Щойно бот його отримає, тут зʼявиться чат.`,
    newCode: 'Новий код',
    connectedTo: (name: string) => `Підключено чат ${name}`,
    blocked: 'Telegram не доставляє повідомлення в цей чат: бота заблоковано або чат видалено. Підключіть чат знову.',
    reconnect: 'Підключити інший чат',
    disconnect: 'Відключити Telegram',
    disconnected: 'Telegram відключено',
    connected: 'Telegram підключено',
    choices: 'Про що повідомляти',
    events: {
      'post.failed': 'Невдалі публікації',
      'post.held': 'Публікації, утримані лімітом',
      'grant.revoked': 'Профілі, що втратили доступ до платформи',
      'profile.unhealthy': 'Профілі, що не працюють',
    } as Record<string, string>,
    digest: 'Ранковий підсумок о 09:00: учорашні публікації, невдачі й топ відео',
    save: 'Зберегти вибір',
    saved: 'Вибір для Telegram збережено',
  },
  webhooks: {
    title: 'Вебхуки',
    intro: 'Скрипти й n8n отримують кожну подію запитом POST із тілом JSON, підписаним вашим секретом за HMAC-SHA256.',
    url: 'Адреса (URL)',
    events: 'Події',
    secret: 'Секрет для підпису',
    secretHint:
      'Щонайменше 16 символів. Згенерований починається з «whsec_», як велить стандарт вебхуків. Збережіть його у своєму скрипті: ми його більше не покажемо.',
    generateSecret: 'Згенерувати секрет',
    add: 'Додати вебхук',
    added: 'Вебхук додано',
    list: 'Ваші вебхуки',
    empty: 'Вебхуків ще немає.',
    remove: (url: string) => `Видалити вебхук ${url}`,
    removeConsequence: 'Події на цю адресу більше не надсилатимуться, журнал доставок зникне разом із вебхуком.',
    deleted: 'Вебхук видалено',
    showDeliveries: 'Журнал доставок',
    hideDeliveries: 'Сховати журнал',
    deliveriesOf: (url: string) => `Журнал доставок ${url}`,
    noDeliveries: 'Доставок ще не було.',
    neverDelivered: 'Ще не надсилався',
    columns: { event: 'Подія', state: 'Стан', answer: 'Остання відповідь', attempts: 'Спроби', created: 'Створено' },
    states: { pending: 'Очікує повтору', delivered: 'Доставлено', failed: 'Не доставлено' } as Record<string, string>,
    status: (code: number) => `HTTP ${code}`,
    errors: {
      timeout: 'Не відповів вчасно',
      network: 'Немає зʼєднання',
      address: 'Адреса заборонена політикою',
    } as Record<string, string>,
    nextAttempt: (time: string) => `наступна спроба ${time}`,
    urlInvalid: 'Вкажіть адресу, що починається з https:// (http:// — лише в пісочниці)',
    eventsRequired: 'Оберіть хоча б одну подію',
    secretTooShort: 'Секрет має містити щонайменше 16 символів',
    standardSecretInvalid: 'Після «whsec_» має йти ключ від 24 до 64 байтів у кодуванні «base64»',
  },
  /** Issue 40.9: a test sent from Settings to a webhook or the Telegram chat, and a webhook's edit. */
  alertTests: {
    send: 'Надіслати тестове',
    sending: 'Надсилаємо тестове…',
    sendWebhook: (url: string) => `Надіслати тестове на ${url}`,
    delivered: (status: number) => `Тестову подію доставлено: адреса відповіла HTTP ${status}`,
    answered: (status: number) => `Тестову подію не доставлено: адреса відповіла HTTP ${status}`,
    notDelivered: {
      timeout: 'Тестову подію не доставлено: адреса не відповіла за 15 секунд',
      network: 'Тестову подію не доставлено: не вдалося зʼєднатися з адресою',
      address: 'Тестову подію не доставлено: вебхуки надсилаються лише на публічні адреси https://',
    } as Record<string, string>,
    telegramSent: (chat: string) => `Тестове повідомлення надіслано в чат ${chat}`,
    telegramUnreachable: 'Telegram не відповів. Спробуйте ще раз за хвилину.',
    edit: 'Змінити',
    editWebhook: (url: string) => `Змінити вебхук ${url}`,
    editTitle: 'Зміна вебхука',
    secretKept: 'Секрет для підпису лишається той самий.',
    saveEdit: 'Зберегти зміни',
    cancelEdit: 'Скасувати',
    updated: 'Вебхук змінено',
  },
} as const;
