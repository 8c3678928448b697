import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { object, string } from 'superstruct';
import type { LoginResponse, RefreshResponse } from '../../src/lib/contract';
import { t } from '../messages';
import { loginSchema, passwordChangeSchema } from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { deviceCookieFor, deviceOf } from '../auth/device-cookie';
import { releaseLoginAttempt, reserveLoginAttempt, type Reservation, type SignInSource } from '../auth/login-throttle';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../auth/passwords';
import { revokeRefreshFamily, rotateRefreshToken, signAccessToken, startSession } from '../auth/tokens';
import { changeOwnPassword, passwordHashOf, userByLogin } from '../auth/users';
import type { Clock } from '../clock';
import { HttpError, parseBody } from '../http-error';
import { authSchemas } from '../../src/lib/contract/auth';

const refreshSchema = object({ refreshToken: string() });

export interface AuthRouteOptions {
  /** PUBLIC_URL: when it is https, the device cookie is Secure even if a proxy in front speaks plain http to us. */
  publicUrl?: string;
  /** The time the sign-in limits' windows and delays go by. */
  clock: Clock;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, { publicUrl, clock }) => {
  const { db, keys, tokenSettings } = app;
  const sourceOf = (request: FastifyRequest, login: string): SignInSource => ({
    login,
    ip: request.ip,
    device: deviceOf(keys.deviceCookie, request.headers.cookie, login),
  });
  /**
   * Counts the attempt, or refuses it with 429 and a Retry-After saying when to try again: a
   * refusal answers at once, so a slowed guesser holds no connection open while it waits.
   */
  const reserve = async (request: FastifyRequest, reply: FastifyReply, login: string): Promise<Reservation> => {
    const reservation = await reserveLoginAttempt(db, sourceOf(request, login), clock.now());
    if (!reservation.refused) return reservation;
    reply.header('retry-after', String(reservation.retryAfterSeconds));
    throw new HttpError(429, t.server.tooManyLoginAttempts(reservation.retryAfterSeconds));
  };
  const isHttps = (request: FastifyRequest) => request.protocol === 'https' || Boolean(publicUrl?.startsWith('https:'));

  app.post('/login', { schema: authSchemas.login }, async (request, reply): Promise<LoginResponse> => {
    const { login, password } = parseBody(loginSchema, request.body);
    const reservation = await reserve(request, reply, login);

    const user = await userByLogin(db, login.trim());
    const passwordMatches = await verifyPassword(user?.passwordHash ?? (await decoyPasswordHash()), password);
    if (!user || !passwordMatches) throw new HttpError(401, t.server.invalidCredentials);
    await releaseLoginAttempt(db, reservation);
    reply.header('set-cookie', deviceCookieFor(keys.deviceCookie, user.login, isHttps(request)));
    return {
      user: { id: user.id, login: user.login, role: user.role },
      ...(await startSession(db, tokenSettings, user.id, clock.now())),
    };
  });

  app.post('/refresh', { schema: authSchemas.refresh }, async (request): Promise<RefreshResponse> => {
    const { refreshToken } = parseBody(refreshSchema, request.body);
    const result = await rotateRefreshToken(db, tokenSettings, refreshToken, clock.now());
    if (result.kind !== 'rotated') throw new HttpError(401, t.server.sessionExpired);
    return {
      accessToken: await signAccessToken(tokenSettings, result.userId, result.sessionId, clock.now()),
      refreshToken: result.refreshToken,
    };
  });

  app.get('/me', { schema: authSchemas.me, preHandler: requireUser }, async (request) => ({ user: currentUser(request) }));

  app.post('/logout', { schema: authSchemas.logout }, async (request, reply) => {
    const { refreshToken } = parseBody(refreshSchema, request.body);
    await revokeRefreshFamily(db, refreshToken, clock.now());
    return reply.status(204).send();
  });

  /**
   * The operator's own new password, from a session only (never an API token). The current one is
   * checked and throttled as a sign-in is, so a session left open cannot be used to guess it. Every other session of the user ends (the
   * trigger of migration 0007); the one the change was made in is named to it and stays.
   */
  app.post('/password', { schema: authSchemas.password, onRequest: requireUser, config: { sessionOnly: true } }, async (request, reply) => {
    const { current_password: currentPassword, password } = parseBody(passwordChangeSchema, request.body);
    const user = currentUser(request);
    const reservation = await reserve(request, reply, user.login);

    const storedHash = await passwordHashOf(db, user.id);
    if (storedHash === undefined || !(await verifyPassword(storedHash, currentPassword))) {
      throw new HttpError(400, t.settings.wrongCurrentPassword);
    }
    await releaseLoginAttempt(db, reservation);
    const passwordHash = await hashPassword(password);
    await changeOwnPassword(db, user.id, passwordHash, request.sessionId);
    return reply.status(204).send();
  });
};
