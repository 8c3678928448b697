import type { FastifyPluginAsync } from 'fastify';
import { eq } from 'drizzle-orm';
import { object, string } from 'superstruct';
import type { LoginResponse, RefreshResponse } from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import { loginSchema } from '../../src/lib/schemas';
import { users } from '../db/schema';
import { currentUser, requireUser } from '../auth/guards';
import { releaseLoginAttempt, reserveLoginAttempt } from '../auth/login-throttle';
import { decoyPasswordHash, verifyPassword } from '../auth/passwords';
import { revokeRefreshFamily, rotateRefreshToken, signAccessToken, startSession } from '../auth/tokens';
import { HttpError, parseBody } from '../http-error';
import { authSchemas } from './schemas/auth';

const refreshSchema = object({ refreshToken: string() });

export const authRoutes: FastifyPluginAsync = async (app) => {
  const { db, tokenSettings } = app;

  app.post('/login', { schema: authSchemas.login }, async (request): Promise<LoginResponse> => {
    const { login, password } = parseBody(loginSchema, request.body);
    if (!(await reserveLoginAttempt(db, login, request.ip))) throw new HttpError(429, t.server.tooManyLoginAttempts);

    const [user] = await db.orm.select().from(users).where(eq(users.login, login.trim()));
    const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !passwordMatches) throw new HttpError(401, t.server.invalidCredentials);
    await releaseLoginAttempt(db, login, request.ip);
    return {
      user: { id: user.id, login: user.login, role: user.role },
      ...(await startSession(db, tokenSettings, user.id)),
    };
  });

  app.post('/refresh', { schema: authSchemas.refresh }, async (request): Promise<RefreshResponse> => {
    const { refreshToken } = parseBody(refreshSchema, request.body);
    const result = await rotateRefreshToken(db, tokenSettings, refreshToken);
    if (result.kind !== 'rotated') throw new HttpError(401, t.server.sessionExpired);
    return {
      accessToken: await signAccessToken(tokenSettings, result.userId, result.sessionId),
      refreshToken: result.refreshToken,
    };
  });

  app.get('/me', { schema: authSchemas.me, preHandler: requireUser }, async (request) => ({ user: currentUser(request) }));

  app.post('/logout', { schema: authSchemas.logout }, async (request, reply) => {
    const { refreshToken } = parseBody(refreshSchema, request.body);
    await revokeRefreshFamily(db, refreshToken);
    return reply.status(204).send();
  });
};
