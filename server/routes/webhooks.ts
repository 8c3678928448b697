import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { webhookSchemas } from '../../src/lib/contract/alerts';
import { webhookSchema, webhookTargetSchema } from '../../src/lib/schemas';
import { t } from '../messages';
import { currentUser, limitAlertTests, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import type { PlatformsMode } from '../platforms/types';
import { createWebhook, deleteWebhook, listWebhooks, testWebhook, updateWebhook, webhookDeliveries } from '../alerts/webhooks';

/**
 * A user's webhooks (issue 32.3): always the signed-in user's own, an admin's included, as the
 * bell is: a webhook carries its owner's secret and sends their events, so no one else reads or
 * removes it (another's id answers 404).
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ mode: PlatformsMode }> = async (app, { mode }) => {
  const { db, keys, clock } = app;
  app.addHook('onRequest', requireUser);

  app.get('/', { schema: webhookSchemas.list }, async (request) => ({ data: await listWebhooks(db, currentUser(request).id) }));

  app.post('/', { schema: webhookSchemas.create }, async (request, reply) => {
    const form = parseBody(webhookSchema, request.body);
    const webhook = await createWebhook(db, keys.secretsAtRest, mode, currentUser(request).id, form);
    return reply.status(201).send(webhook);
  });

  app.patch('/:id', { schema: webhookSchemas.update }, async (request) => {
    const form = parseBody(webhookTargetSchema, request.body);
    const webhook = await updateWebhook(db, mode, currentUser(request).id, request.params.id, form);
    if (!webhook) throw new HttpError(404, t.server.notFound);
    return webhook;
  });

  app.post('/:id/test', { schema: webhookSchemas.test, preHandler: limitAlertTests }, async (request) => {
    const result = await testWebhook(db, keys.secretsAtRest, mode, currentUser(request).id, request.params.id, clock.now());
    if (!result) throw new HttpError(404, t.server.notFound);
    return result;
  });

  app.delete('/:id', { schema: webhookSchemas.remove }, async (request, reply) => {
    if (!(await deleteWebhook(db, currentUser(request).id, request.params.id))) throw new HttpError(404, t.server.notFound);
    return reply.status(204).send();
  });

  app.get('/:id/deliveries', { schema: webhookSchemas.deliveries }, async (request) => {
    const data = await webhookDeliveries(db, currentUser(request).id, request.params.id);
    if (!data) throw new HttpError(404, t.server.notFound);
    return { data };
  });
};
