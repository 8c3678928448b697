import type { FastifyInstance, FastifyReply } from 'fastify';
import { readJson, readParams, type PlatformCall } from '../common';
import { sendConsentPage } from '../consent';
import { sandboxBotUsername, type TelegramSandbox } from './chats';

const whole = (value: unknown, fallback: number) => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : fallback;
};

/**
 * The sandbox's Telegram controls: `GET /sandbox/_telegram` (what the bot sent, oldest first, and
 * the chats that wrote to it), `POST /sandbox/_telegram/send` ({ text, chatId?, username?,
 * firstName? }: a user writes to the bot, as when they send it their code), `POST
 * /sandbox/_telegram/block` ({ chatId }: the user blocks the bot), `DELETE /sandbox/_telegram`.
 */
export function telegramControls(telegram: TelegramSandbox) {
  return async (sandbox: FastifyInstance) => {
    sandbox.get('/_telegram', async () => ({ messages: telegram.sent, chats: [...telegram.chats.values()] }));
    sandbox.post('/_telegram/send', async (request, reply) => {
      const body = await readJson(request);
      const text = body.text;
      const chatId = body.chatId === undefined ? undefined : whole(body.chatId, NaN);
      const named = (value: unknown) => value === undefined || (typeof value === 'string' && value.length > 0 && value.length <= 64);
      if (typeof text !== 'string' || text === '' || Number.isNaN(chatId) || !named(body.username) || !named(body.firstName)) {
        return reply.status(400).send({ message: 'Expected { text, chatId?, username?, firstName? }' });
      }
      const update = telegram.userSays(text, { id: chatId, username: body.username, firstName: body.firstName });
      return reply.status(201).send({ update });
    });
    sandbox.post('/_telegram/block', async (request, reply) => {
      const chatId = whole((await readJson(request)).chatId, NaN);
      if (!telegram.chats.has(chatId)) return reply.status(404).send({ message: 'No chat with that id wrote to the bot' });
      telegram.block(chatId);
      return reply.status(204).send();
    });
    sandbox.delete('/_telegram', async () => {
      telegram.reset();
      return { messages: telegram.sent, chats: [] };
    });
  };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function chatPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:0 .75rem;background:#e7ebf0;color:#0f172a}main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}h1{font-size:1.25rem;margin-top:0}.note{color:#475569;font-size:.9rem}.bubble{margin:.5rem 0;padding:.5rem .75rem;border-radius:12px;max-width:85%;white-space:pre-wrap;overflow-wrap:anywhere}.user{background:#dbeafe;margin-left:auto}.bot{background:#f1f5f9}.who{display:block;font-size:.75rem;color:#475569}ol{list-style:none;padding:0;display:flex;flex-direction:column}label{display:block;margin-top:1rem;font-weight:600}input[type=text]{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #64748b;border-radius:8px}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.25rem;align-items:center}button,.button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none}.secondary{background:#fff;color:#1d4ed8}code{overflow-wrap:anywhere}</style>
</head><body><main>${body}</main></body></html>`;
}

const sandboxNote = '<p class="note">Це чат пісочниці: у режимі live посилання відкриває справжній Telegram.</p>';

/**
 * What t.me is to a user, for the sandbox's bot: `GET /sandbox/t.me/<bot>?start=<code>` shows the
 * bot and the message the link sends, `/start <code>`; 'Почати' sends it from a new chat, as a new
 * Telegram user would, and opens that chat's page, where the bot's answers appear (the settings
 * screen's link goes here in sandbox mode). Not a control: every operator connecting Telegram in
 * the sandbox comes here, and a chat's page is reached only by the address its 'Почати' gave.
 */
export function telegramChatPages(telegram: TelegramSandbox, mount: string) {
  return async (pages: FastifyInstance) => {
    const notFound = (reply: FastifyReply) =>
      sendConsentPage(reply.status(404), chatPage('Не знайдено', '<h1>Такого бота чи чату в пісочниці немає</h1>'));

    pages.get<PlatformCall>('/:bot', async (request, reply) => {
      const { bot } = request.params;
      if (bot !== sandboxBotUsername) return notFound(reply);
      const start = request.query.start ?? '';
      const text = start ? `/start ${start}` : '/start';
      return sendConsentPage(
        reply,
        chatPage(
          `Telegram пісочниці: @${bot}`,
          `<h1>Бот @${escapeHtml(bot)}</h1>
<p>Кнопка «Почати» надішле боту повідомлення:</p>
<p><code>${escapeHtml(text)}</code></p>
${sandboxNote}
<form method="post">
<label for="firstName">Ваше імʼя в Telegram пісочниці</label>
<input type="text" id="firstName" name="firstName" maxlength="64" autocomplete="name" value="Оператор">
<div class="actions"><button type="submit">Почати</button></div>
</form>`,
        ),
      );
    });

    pages.post<PlatformCall>('/:bot', async (request, reply) => {
      const { bot } = request.params;
      if (bot !== sandboxBotUsername) return notFound(reply);
      const params = await readParams(request);
      const start = request.query.start ?? '';
      const firstName = (params.firstName ?? '').trim().slice(0, 64) || 'Оператор';
      const chat = telegram.startChat(start ? `/start ${start}` : '/start', firstName);
      return reply.redirect(`${mount}/t.me/${bot}/chat/${chat.pageKey}`, 303);
    });

    pages.get<PlatformCall>('/:bot/chat/:key', async (request, reply) => {
      const { bot, key } = request.params;
      const chat = bot === sandboxBotUsername ? telegram.chatOfPage(key ?? '') : undefined;
      if (!chat) return notFound(reply);
      const messages = telegram
        .historyOf(chat.id)
        .map(
          (message) =>
            `<li class="bubble ${message.fromBot ? 'bot' : 'user'}"><span class="who">${message.fromBot ? `@${escapeHtml(bot!)}` : escapeHtml(chat.firstName)}</span>${escapeHtml(message.text)}</li>`,
        )
        .join('');
      return sendConsentPage(
        reply,
        chatPage(
          `Telegram пісочниці: чат із @${bot}`,
          `<h1>Чат із ботом @${escapeHtml(bot!)}</h1>
<p class="note">Ви: ${escapeHtml(chat.firstName)} (@${escapeHtml(chat.username)}). Бот відповідає за кілька секунд: оновіть сторінку, щоб побачити відповідь.</p>
<ol aria-label="Повідомлення">${messages}</ol>
${sandboxNote}
<div class="actions"><a class="button" href="${mount}/t.me/${escapeHtml(bot!)}/chat/${escapeHtml(key!)}">Оновити</a><a class="button secondary" href="/setting">До налаштувань</a></div>`,
        ),
      );
    });
  };
}
