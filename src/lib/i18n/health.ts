/** Issues 32.1, 39.5: the one state of a profile's connection to a platform (connection_states), whichever path learnt it. */
export const health = {
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
} as const;
