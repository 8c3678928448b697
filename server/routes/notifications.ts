import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError } from '../http-error';
import { t } from '../messages';
import { markNotificationRead, markNotificationsRead, notificationList } from '../services/lists/notifications';
import { notificationSchemas } from '../../src/lib/contract/operator-day';

/**
 * The bell's notifications: always the signed-in user's own, about their own requests and
 * profiles, an admin included (the bell is personal; the admin reads others' profiles on their screens).
 */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: notificationSchemas.list }, async (request) => notificationList(app.db, currentUser(request).id));

  app.post('/read', { schema: notificationSchemas.readAll }, async (request, reply) => {
    await markNotificationsRead(app.db, currentUser(request).id, new Date(app.clock.now()));
    return reply.status(204).send();
  });

  app.post('/:id/read', { schema: notificationSchemas.read }, async (request, reply) => {
    // Another user's notification is not found, as another user's profile is: nothing says it exists.
    const marked = await markNotificationRead(app.db, currentUser(request).id, request.params.id, new Date(app.clock.now()));
    if (!marked) throw new HttpError(404, t.server.notFound);
    return reply.status(204).send();
  });
};
