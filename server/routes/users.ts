import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ManagedUser, Paged, UserDetail } from '../../src/lib/contract';
import { t } from '../messages';
import { ownUserSchema, userSchema } from '../../src/lib/schemas';
import { deleteStoppingUploads } from '../jobs/publish-stops';
import { requestPrefix } from '../jobs/render';
import { currentUser, requireAdmin } from '../auth/guards';
import { found } from '../auth/ownership';
import { hashPassword } from '../auth/passwords';
import { deleteUserRow, insertUser, resetUser, setLogin, userExists } from '../auth/users';
import { HttpError, parseBody } from '../http-error';
import { accountPage } from '../services/lists/account-list';
import { pageFromQuery } from '../services/lists/paging';
import { managedUserOf, userListPage } from '../services/lists/user-list';
import { requestsOfUser } from '../services/publishing/creation-requests';
import { userVideoPage } from '../services/lists/user-video-list';
import { userSchemas } from '../../src/lib/contract/users';

const uniqueViolation = '23505';

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((candidate) => (candidate as { code?: string } | undefined)?.code === uniqueViolation);
}

/**
 * SPEC's call carries login and password only: the repeat belongs to the form, which checks it.
 * A body without it is taken as confirmed; one that sends it must match.
 */
function withConfirmation(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || 'password_confirmation' in body) return body;
  return { ...body, password_confirmation: (body as { password?: unknown }).password };
}

/** User management, for admins only; what changes a user is for a signed-in admin, never an API token. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  app.addHook('onRequest', requireAdmin);

  const managedUser = (id: number): Promise<ManagedUser> => managedUserOf(db, id);

  /** Runs a write of the login, answering a taken login in Ukrainian rather than as a server error. */
  async function writingLogin<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, t.users.loginTaken);
      throw error;
    }
  }

  app.get('/', { schema: userSchemas.list }, async (request): Promise<Paged<ManagedUser>> =>
    userListPage(db, pageFromQuery(request.query)),
  );

  app.get('/:id', { schema: userSchemas.detail }, async (request): Promise<UserDetail> => {
    const user = await managedUser(request.params.id);
    const [accountsPage, videoPage] = await Promise.all([accountPage(db, { ownerId: user.id }, 1), userVideoPage(db, user.id, 1)]);
    return { user, accounts: accountsPage, video: videoPage };
  });

  /** An empty page answers 404 when its user does not exist; a page with rows proves the user does, at no extra query. */
  async function ofExistingUser<T extends { data: unknown[] }>(userId: number, page: T): Promise<T> {
    if (page.data.length === 0 && !(await userExists(db, userId))) throw new HttpError(404, t.server.notFound);
    return page;
  }

  app.get('/:id/account', { schema: userSchemas.accounts }, async (request) => {
    const userId = request.params.id;
    return ofExistingUser(userId, await accountPage(db, { ownerId: userId }, pageFromQuery(request.query)));
  });

  app.get('/:id/video', { schema: userSchemas.videos }, async (request) => {
    const userId = request.params.id;
    return ofExistingUser(userId, await userVideoPage(db, userId, pageFromQuery(request.query)));
  });

  app.post('/', { schema: userSchemas.create, config: { sessionOnly: true } }, async (request, reply) => {
    const form = parseBody(userSchema, withConfirmation(request.body));
    const passwordHash = await hashPassword(form.password);
    const id = await writingLogin(() => insertUser(db, form.login.trim(), passwordHash));
    request.log.info({ userId: id }, 'user created');
    return reply.status(201).send(await managedUser(id));
  });

  /**
   * An admin's own record takes a new login only: their password changes through POST
   * /api/auth/password, which wants the current one, is throttled as a sign-in is and keeps the
   * session it was changed in. A second way past the current password is how a stolen session
   * could take the account (issue 38), so a password here is refused, pointing there.
   *
   * Another user's new password is a reset: their sessions end (the trigger of migration 0007) and
   * their API tokens are revoked with it, as whoever had the old password may have made tokens.
   */
  app.patch('/:id', { schema: userSchemas.update, config: { sessionOnly: true } }, async (request) => {
    const id = request.params.id;
    await managedUser(id);
    if (id === currentUser(request).id) {
      if ('password' in request.body || 'password_confirmation' in request.body) {
        throw new HttpError(403, t.users.ownPasswordInSettings);
      }
      const { login } = parseBody(ownUserSchema, request.body);
      await writingLogin(() => setLogin(db, id, login.trim()));
      return managedUser(id);
    }
    const form = parseBody(userSchema, withConfirmation(request.body));
    const passwordHash = await hashPassword(form.password);
    const revokedAt = new Date(app.clock.now()).toISOString();
    await writingLogin(() => resetUser(db, id, form.login.trim(), passwordHash, revokedAt));
    return managedUser(id);
  });

  /**
   * Deletes the user with everything they own; what other users own is kept
   * (docs/deleting.md). Admins cannot delete themselves, so an admin always remains.
   */
  app.delete('/:id', { schema: userSchemas.remove, config: { sessionOnly: true } }, async (request, reply) => {
    const id = request.params.id;
    if (id === currentUser(request).id) throw new HttpError(400, t.users.cannotDeleteSelf);
    const requests = await requestsOfUser(db, id);
    await managedUser(id);
    // The uploads of the user's requests and profiles stop first, or the delete is refused with 409.
    const deleted = await deleteStoppingUploads(db, app.clock, 'user', id, (run) => deleteUserRow(run, id));
    found(deleted);
    // Files go after the rows: a crash in between leaves unreachable files, never rows without files.
    const { storage } = app.media;
    await storage.deleteAll(`photos/${id}`);
    for (const { idUpload } of requests) await storage.deleteAll(requestPrefix(idUpload));
    request.log.info({ userId: id }, 'user deleted');
    return reply.status(204).send();
  });
};
