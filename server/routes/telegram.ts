import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { telegramSchemas } from '../../src/lib/contract/alerts';
import { telegramChoicesSchema } from '../../src/lib/schemas';
import { t } from '../messages';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import { disconnectTelegram, issueTelegramCode, saveTelegramChoices, telegramSettingsOf } from '../alerts/telegram-links';

/**
 * The signed-in user's Telegram chat for alerts (issue 32.3), personal like the bell. `botToken`
 * is the installation's bot (null in live mode without TELEGRAM_BOT_TOKEN: then there is nothing
 * to connect to). The API never calls Telegram: a worker reads the codes users send the bot.
 */
export const telegramRoutes: FastifyPluginAsyncTypebox<{ botToken: string | null }> = async (app, { botToken }) => {
  const { db, clock } = app;
  app.addHook('onRequest', requireUser);

  const settings = (userId: number) => telegramSettingsOf(db, userId, botToken, clock.now());

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

  app.delete('/', { schema: telegramSchemas.disconnect }, async (request, reply) => {
    await disconnectTelegram(db, currentUser(request).id);
    return reply.status(204).send();
  });
};
