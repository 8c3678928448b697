/** Issue 40.9: a test sent from Settings to a webhook or the Telegram chat, and a webhook's edit. */
export const alertTests = {
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
} as const;
