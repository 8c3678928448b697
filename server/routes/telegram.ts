import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { telegramSchemas } from '../../src/lib/contract/alerts';
import { telegramChoicesSchema } from '../../src/lib/schemas';
import { t } from '../messages';
import { currentUser, limitAlertTests, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import { disconnectTelegram, issueTelegramCode, saveTelegramChoices, sendTelegramTest, telegramSettingsOf } from '../alerts/telegram-links';
import type { TelegramSettings as BotSettings } from '../alerts/telegram-bot';

/**
 * The signed-in user's Telegram chat for alerts (issue 32.3), personal like the bell. `bot()` is
 * the installation's bot (its token null in live mode without TELEGRAM_BOT_TOKEN: then there is
 * nothing to connect to). A worker reads the codes users send the bot; the API calls Telegram only
 * for the test message, whose answer is what the user asked to see.
 */
export const telegramRoutes: FastifyPluginAsyncTypebox<{ bot: () => BotSettings }> = async (app, { bot }) => {
  const { db, clock } = app;
  const { botToken } = bot();
  app.addHook('onRequest', requireUser);

  const settings = (userId: number) => telegramSettingsOf(db, userId, bot(), clock.now());

  app.get('/', { schema: telegramSchemas.get }, async (request) => settings(currentUser(request).id));

  app.post('/code', { schema: telegramSchemas.code }, async (request, reply) => {
    if (!botToken) throw new HttpError(409, t.telegram.notConfigured);
    const { id } = currentUser(request);
    await issueTelegramCode(db, id, clock.now());
    return reply.status(201).send(await settings(id));
  });

  app.put('/', { schema: telegramSchemas.save }, async (request) => {
    const { id } = currentUser(request);
    await saveTelegramChoices(db, id, parseBody(telegramChoicesSchema, request.body));
    return settings(id);
  });

  app.post('/test', { schema: telegramSchemas.test, preHandler: limitAlertTests }, async (request) => {
    if (!botToken) throw new HttpError(409, t.telegram.notConfigured);
    const result = await sendTelegramTest(db, bot(), currentUser(request).id);
    if (!result) throw new HttpError(409, t.alertTests.telegramNotConnected);
    return result;
  });

  app.delete('/', { schema: telegramSchemas.disconnect }, async (request, reply) => {
    await disconnectTelegram(db, currentUser(request).id);
    return reply.status(204).send();
  });
};
