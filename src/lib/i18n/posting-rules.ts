import { counted, nouns } from './words';

export const postingRules = {
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
} as const;
