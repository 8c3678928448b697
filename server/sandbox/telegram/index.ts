/**
 * The sandbox's Telegram: the Bot API its bot calls (bot-api.ts, its formatting in formatting.ts),
 * the chats and updates behind it (chats.ts), and the controls and t.me pages (pages.ts).
 */
export { telegramSandbox, telegramMethods, type TelegramMethod } from './bot-api';
export {
  TelegramSandbox,
  sandboxBotUsername,
  type PersistedTelegram,
  type SentTelegramMessage,
  type TelegramChat,
  type TelegramUpdate,
} from './chats';
export { telegramChatPages, telegramControls } from './pages';
