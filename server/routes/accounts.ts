import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { containsPattern } from '../services/lists/ranked-page';
import {
  type AccountDetail,
  type ConnectYouTubeResponse,
  type HealthCheckAnswer,
  type PostingSlots,
  type ProfileSetup,
  type SelectOption,
  type SessionUser,
} from '../../src/lib/contract';
import { t } from '../messages';
import {
  accountSchemaFor,
  channelDescriptionSchema,
  instagramProfileSchema,
  postingSlotsSchema,
  type AccountForm,
  type LinkedPlatforms,
} from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { found, visibleOwner } from '../auth/ownership';
import { SecretUnreadableError, secretsOfRow, splitProxy } from '../auth/secrets';
import { HttpError, parseBody } from '../http-error';
import { PlatformNetworkError } from '../net/http';
import { proxyUrl } from '../auth/proxy-url';
import { refuseNonPublicProxyAddress, type ProxyPolicy } from '../net/proxy-policy';
import { PermanentPlatformError, PlatformError, ProfileAuthError } from '../platforms/errors';
import { profileContext, typedMethod, type PlatformAccess, type ProfileCredentials } from '../platforms/profile-context';
import type { Platform, PlatformsMode } from '../platforms/types';
import { checkConnections } from '../services/profiles/connection-check';
import { deleteStoppingUploads } from '../jobs/publish-stops';
import { memoryProgressStore } from '../platforms/progress';
import { youtube } from '../platforms/youtube/connector';
import { youtubeConsentLink } from '../platforms/youtube/oauth';
import { consentCookieFor, linkSignature } from '../platforms/consent-cookie';
import { issueOAuthState } from '../platforms/oauth-state';
import {
  appVariables,
  checkedNamesOf,
  connectionSecrets,
  loadConnections,
  pastedTikTokSeconds,
  recordAccessFailure,
  type StoredConnection,
} from '../platforms/connections';
import { builtInApps, linkRedirectUri } from '../platforms/oauth-links';
import { linkConnectors, serverPlatforms } from '../platforms/registry';
import {
  accountOption,
  linkedPlatformsOf,
  savedSecretsOf,
  toAccountDetail,
  visibleAccountView,
  type AccountRow,
} from '../services/profiles/account-views';
import { accountPage, groupCandidates, profileChecksOf } from '../services/lists/account-list';
import {
  createProfile,
  deleteProfileRow,
  newProfileId,
  saveProfile,
  setProfileColumns,
  visibleProfileId,
  visibleProfileRow,
  type CheckedConnection,
  type ProfileRow,
} from '../services/profiles/profile-rows';
import { accountVideoPage } from '../services/lists/account-video-list';
import type { OAuthSettings } from './oauth';
import { pageFromQuery } from '../services/lists/paging';
import { accountSchemas } from '../../src/lib/contract/accounts';
import { postingSlotsSchemas } from '../../src/lib/contract/posting-slots';
import { consentPlatformIds } from '../../src/lib/platforms';
import { inheritedSlotColumns, profileSlots, slotColumns, type SlotColumns } from '../services/planning/posting-slots';
import { checkProfileHealth } from '../jobs/health-check';
import type { StatsSyncSettings } from '../services/statistics/quota-ledger';

/** A check asked from a profile's page waits this long after the profile's last check: pressing again does not hammer the platforms. */
export const healthCheckGapMs = 60_000;

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** A proxy the platform calls cannot use is refused now rather than at the first upload. */
function checkProxy(proxy: string, policy: ProxyPolicy) {
  try {
    refuseNonPublicProxyAddress(proxyUrl(proxy), policy);
    return splitProxy(proxy);
  } catch (error) {
    throw new HttpError(400, (error as Error).message);
  }
}

function plainColumns(form: AccountForm) {
  return {
    ipVersion: form.ipVersion,
    comments: form.comments.trim(),
    isActiveYouTube: form.isActiveYouTube,
    isActiveTikTok: form.isActiveTikTok,
    isActiveInstagram: form.isActiveInstagram,
    youtubeClientId: blankToNull(form.YouTubeAuthClientId),
    youtubeLogin: blankToNull(form.YouTubeLogin),
    instagramLogin: blankToNull(form.InstagramLogin),
    instagramUserId: blankToNull(form.InstagramUserId),
  };
}

/** The form's secrets kept in the profile's own row; the platforms' typed credentials are connections (typedConnections). */
const secretColumnOf = {
  YouTubeAuthClientSecret: ['youtubeClientSecret', 'youtube_client_secret'],
  YouTubePassword: ['youtubePassword', 'youtube_password'],
} as const satisfies Record<string, readonly [keyof AccountRow, string]>;
type ProfileSecretField = keyof typeof secretColumnOf;

/**
 * The secret columns the form writes: secrets are kept exactly as typed (a password may end in a
 * space), encrypted for this row. A blank field keeps what is stored (`existing`), so a form that
 * never saw the secrets cannot erase them; a new profile stores blanks as NULL.
 */
function secretColumns(key: Buffer, policy: ProxyPolicy, accountId: number, form: AccountForm, existing?: AccountRow) {
  const secrets = secretsOfRow(key, 'accounts', accountId);
  const columns: Partial<Record<(typeof secretColumnOf)[ProfileSecretField][0] | 'proxyPassword', string | null>> = {};
  for (const field of Object.keys(secretColumnOf) as ProfileSecretField[]) {
    const [property, column] = secretColumnOf[field];
    if (form[field] !== '' || !existing) columns[property] = secrets.seal(column, form[field]);
  }
  // A proxy typed without a password keeps the stored one while its address (and user) stays the same.
  const proxy = checkProxy(form.proxy, policy);
  if (proxy.password !== null || !existing || existing.proxy !== proxy.address) {
    columns.proxyPassword = secrets.seal('proxy_password', proxy.password);
  }
  return { proxy: proxy.address, ...columns };
}

/**
 * The typed credentials a save leaves the profile with, sealed for their connections as the form
 * secrets are: a secret typed replaces the stored one and a blank keeps it, and the login and user
 * id typed beside them name whom they reach. A pasted TikTok string starts its clock when typed,
 * as nothing can renew it (pastedTikTokSeconds).
 */
function typedConnections(
  key: Buffer,
  accountId: number,
  form: AccountForm,
  stored: StoredConnection[],
  pastedSeconds: number,
  now: Date,
): StoredConnection[] {
  const typed = [
    { platform: 'tiktok', method: 'pasted', secret: form.TikTiokAuthStr, remoteId: null, remoteName: null },
    {
      platform: 'instagram',
      method: 'pasted',
      secret: form.InstagramAccessToken,
      remoteId: blankToNull(form.InstagramUserId),
      remoteName: null,
    },
    {
      platform: 'instagram',
      method: 'login',
      secret: form.InstagramPassword,
      remoteId: null,
      remoteName: blankToNull(form.InstagramLogin),
    },
  ] as const;
  return typed.flatMap(({ platform, method, secret, remoteId, remoteName }): StoredConnection[] => {
    const kept = stored.find((connection) => connection.platform === platform && connection.method === method);
    const accessToken =
      secret === '' ? (kept?.accessToken ?? null) : connectionSecrets(key, accountId, platform, method).seal('access_token', secret);
    if (accessToken === null) return [];
    const accessExpiresAt =
      secret !== '' && serverPlatforms[platform].credentials.typed?.pastedEnds
        ? new Date(now.getTime() + pastedSeconds * 1000)
        : (kept?.accessExpiresAt ?? null);
    return [
      {
        accountId,
        platform,
        method,
        accessToken,
        refreshToken: null,
        accessExpiresAt,
        refreshExpiresAt: null,
        remoteId,
        remoteName,
        state: 'connected',
        error: null,
        checkedName: null,
        updatedAt: now,
      },
    ];
  });
}

/** Whether a typed credential is all a platform call needs: the secret, and the login or user id it goes with. */
function typedReady(typed: StoredConnection[], platform: Platform, mode: PlatformsMode): boolean {
  const connection = typed.find((candidate) => candidate.platform === platform && candidate.method === typedMethod(platform, mode));
  return connection !== undefined && (serverPlatforms[platform].credentials.typed?.ready(connection) ?? false);
}

/** A profile not saved yet reaches no platform through OAuth: YouTube waits for the consent link. */
function newProfileCredentials(id: number): ProfileCredentials {
  return { id, proxy: '', proxyPassword: null, inYouTube: false, youtubeClientId: null, instagramLogin: null, instagramUserId: null };
}

interface PlatformCheck {
  platform: Platform;
  /** The operator just gave these credentials: a refusal keeps the save from happening. */
  typed: boolean;
}

/**
 * The platforms a save asks which account they reach: each one switched on with credentials, when
 * the profile is new, its credentials were typed or it was just switched on (a refusal then stops
 * the save), or when the proxy changed, the platform's failure stands or it never answered (a
 * refusal then only marks the profile, so a revoked grant never blocks editing the rest).
 */
function platformsToCheck(
  form: AccountForm,
  next: ProfileCredentials,
  typed: StoredConnection[],
  mode: PlatformsMode,
  linked: LinkedPlatforms,
  stored: StoredConnection[],
  down: Platform[],
  existing?: AccountRow,
): PlatformCheck[] {
  const recheck = (platform: Platform) =>
    existing !== undefined &&
    (existing.proxy !== next.proxy ||
      existing.proxyPassword !== next.proxyPassword ||
      down.includes(platform) ||
      !checkedNamesOf(stored)[platform]);
  const instagramReady = linked.instagram || typedReady(typed, 'instagram', mode);
  const instagramTyped =
    form.InstagramPassword !== '' ||
    form.InstagramAccessToken !== '' ||
    next.instagramLogin !== existing?.instagramLogin ||
    next.instagramUserId !== existing?.instagramUserId;
  const candidates: [Platform, boolean, boolean][] = [
    // YouTube's credentials come through the consent link, never typed here.
    ['youtube', form.isActiveYouTube && next.inYouTube, false],
    [
      'tiktok',
      form.isActiveTikTok && (linked.tiktok || typedReady(typed, 'tiktok', mode)),
      !existing?.isActiveTikTok || form.TikTiokAuthStr !== '',
    ],
    ['instagram', form.isActiveInstagram && instagramReady, !existing?.isActiveInstagram || instagramTyped],
  ];
  return candidates
    .filter(([platform, ready, typed]) => ready && (typed || recheck(platform)))
    .map(([platform, , typed]) => ({ platform, typed }));
}

export interface AccountRouteOptions {
  oauth: OAuthSettings;
  /** Read per request: in sandbox mode the API's own address is known only once it listens. */
  platforms: () => PlatformAccess;
  /** The sandbox's loopback proxy for profiles, when this process started one. */
  sandboxProxy?: string;
  /** The installation's slots (config.postingSlots), for profiles whose group has none and who have none. */
  postingSlots: PostingSlots;
  /** What platform reads may spend (the quota ledger's limits), a health check's as a job's. */
  statsSync: StatsSyncSettings;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (
  app,
  { oauth, platforms, sandboxProxy, postingSlots, statsSync },
) => {
  const { db, keys } = app;
  app.addHook('onRequest', requireUser);

  const accountRow = (user: SessionUser, id: number) => visibleProfileRow(db, user, id);

  async function detail(user: SessionUser, id: number): Promise<AccountDetail> {
    const row = await visibleAccountView(db, user, id);
    return toAccountDetail(
      found(row),
      found(await accountVideoPage(db, user, id, 1)),
      await loadConnections(db, [id]),
      (await slotsOf(id))!,
      await profileChecksOf(db, id),
    );
  }

  const slotsOf = async (id: number) => (await profileSlots(db, [id], postingSlots)).get(id);

  /** The profile's own slots from now on (`columns`), or none: it takes its group's or the installation's. */
  async function setSlots(user: SessionUser, id: number, columns: SlotColumns) {
    const existing = await accountRow(user, id);
    await setProfileColumns(db, existing.id, { ...columns, updatedAt: new Date(app.clock.now()) });
    return (await slotsOf(existing.id))!;
  }

  /**
   * Whether the form names another OAuth client than the stored one: another id, or a newly typed
   * secret that differs from the stored one (an unreadable stored secret counts as another).
   */
  function youtubeClientChanged(existing: AccountRow, clientId: string | null, clientSecret: string) {
    if (existing.youtubeClientId !== clientId) return true;
    if (clientSecret === '') return false;
    try {
      return (
        (secretsOfRow(keys.secretsAtRest, 'accounts', existing.id).open('youtube_client_secret', existing.youtubeClientSecret) ?? '') !==
        clientSecret
      );
    } catch (error) {
      if (error instanceof SecretUnreadableError) return true;
      throw error;
    }
  }

  app.get('/', { schema: accountSchemas.list }, async (request) => {
    const user = currentUser(request);
    const { q, platform, health } = request.query;
    // An operator's few hundred profiles are read whole by a search: the comment, the proxy and the names the platforms gave.
    const filter = {
      ownerId: visibleOwner(user),
      pattern: q?.trim() ? containsPattern(q.trim()) : null,
      platform: platform ?? null,
      problem: health === 'problem',
    };
    return accountPage(db, filter, pageFromQuery(request.query));
  });

  /** The profiles a group may hold: those in no group, and those already in this one (0 for a new group). */
  app.get('/search', { schema: accountSchemas.search }, async (request): Promise<SelectOption[]> => {
    const groupId = Number(request.query.groupId);
    const rows = await groupCandidates(db, currentUser(request), Number.isSafeInteger(groupId) && groupId > 0 ? groupId : null);
    return rows.map(accountOption);
  });

  app.get('/setup', { schema: accountSchemas.setup }, async (): Promise<ProfileSetup> => {
    const { mode } = platforms();
    return { mode, sandboxProxy: mode === 'sandbox' ? (sandboxProxy ?? null) : null };
  });

  app.get('/:id', { schema: accountSchemas.detail }, async (request) => detail(currentUser(request), request.params.id));

  /**
   * Checks the platforms the save touches (see platformsToCheck) before anything is stored: a
   * refusal of credentials just typed answers 400 in the platform's words. Returns what the answers
   * change: the platforms' names, and their standing failures.
   */
  async function checkedConnection(
    form: AccountForm,
    next: ProfileCredentials,
    typed: StoredConnection[],
    linked: LinkedPlatforms,
    stored: StoredConnection[],
    existing?: AccountRow,
  ): Promise<CheckedConnection> {
    const settings = platforms();
    const states = existing ? (await profileChecksOf(db, existing.id)).health : {};
    const down = (Object.keys(states) as Platform[]).filter((platform) => states[platform]?.state === 'down');
    const checks = platformsToCheck(form, next, typed, settings.mode, linked, stored, down, existing);
    if (checks.length === 0) return { checked: [], connectedAs: {}, refused: [] };
    const answer = await checkConnections(
      next,
      checks.map((check) => check.platform),
      keys.secretsAtRest,
      settings,
      existing ? db : undefined,
      typed,
    );
    const typedRefusal = answer.refused.find((error) => checks.some((check) => check.typed && check.platform === error.platform));
    if (typedRefusal) throw new HttpError(400, typedRefusal.message);
    return { checked: checks.map((check) => check.platform), connectedAs: answer.connectedAs, refused: answer.refused };
  }

  app.post('/', { schema: accountSchemas.create }, async (request, reply) => {
    const user = currentUser(request);
    const form = parseBody(accountSchemaFor({}, {}, request.body.connectByConsent, request.body.connecting), request.body);
    const columns = plainColumns(form);
    // The id comes first because every secret is encrypted bound to the id of its row.
    const id = await newProfileId(db);
    const secrets = secretColumns(keys.secretsAtRest, platforms().network.policy, id, form);
    const typed = typedConnections(keys.secretsAtRest, id, form, [], pastedSeconds(), new Date(app.clock.now()));
    const connection = await checkedConnection(form, { ...newProfileCredentials(id), ...columns, ...secrets }, typed, {}, []);
    // The row and its connections are one save: a failure between them leaves neither.
    await createProfile(db, { id, userId: user.id, ...columns, ...secrets }, typed, connection, new Date(app.clock.now()));
    request.log.info({ accountId: id }, 'profile created');
    return reply.status(201).send(await detail(user, id));
  });

  app.patch('/:id', { schema: accountSchemas.update }, async (request) => {
    const user = currentUser(request);
    const existing = await accountRow(currentUser(request), request.params.id);
    const stored = await loadConnections(db, [existing.id]);
    const linked = linkedPlatformsOf(stored);
    const form = parseBody(
      accountSchemaFor(savedSecretsOf(existing, stored), linked, request.body.connectByConsent, request.body.connecting),
      request.body,
    );
    const columns = plainColumns(form);
    const secrets = secretColumns(keys.secretsAtRest, platforms().network.policy, existing.id, form, existing);
    const typed = typedConnections(keys.secretsAtRest, existing.id, form, stored, pastedSeconds(), new Date(app.clock.now()));
    // A refresh token belongs to one OAuth client: another client means connecting again.
    const clientChanged = youtubeClientChanged(existing, columns.youtubeClientId, form.YouTubeAuthClientSecret);
    const youtubeReset = clientChanged ? { inYouTube: false } : {};
    const next = { ...existing, ...columns, ...secrets, ...youtubeReset };
    const connection = await checkedConnection(form, next, typed, linked, stored, existing);
    const at = new Date(app.clock.now());
    const changed = { ...columns, ...secrets, ...youtubeReset, updatedAt: at };
    await saveProfile(db, existing.id, changed, clientChanged, typed, connection, at);
    return detail(user, existing.id);
  });

  function pastedSeconds() {
    const access = platforms();
    return pastedTikTokSeconds(access.mode, access.sandboxTokenTtlSeconds);
  }

  app.patch('/update-channel/:id', { schema: accountSchemas.updateChannel }, async (request) => {
    const existing = await accountRow(currentUser(request), request.params.id);
    const { description } = parseBody(channelDescriptionSchema, request.body);
    const text = description.trim();
    await setProfileColumns(db, existing.id, { description: text, updatedAt: new Date(app.clock.now()) });
    if (existing.isActiveYouTube && existing.inYouTube) await pushChannelDescription(existing, text);
    return detail(currentUser(request), existing.id);
  });

  /** The stored description stays as typed when YouTube refuses it; the operator reads why and can save again. */
  async function pushChannelDescription(account: ProfileRow, description: string) {
    try {
      const ctx = await profileContext(account, 'youtube', {
        db,
        secretsKey: keys.secretsAtRest,
        settings: platforms(),
        progress: memoryProgressStore(),
      });
      await youtube.updateChannelDescription(ctx, description);
    } catch (error) {
      if (error instanceof ProfileAuthError) {
        const at = new Date(app.clock.now());
        await recordAccessFailure(db.sql, { accountId: account.id, platform: 'youtube', source: 'edit', detail: error.detail, at });
      }
      if (error instanceof PermanentPlatformError || error instanceof ProfileAuthError) throw new HttpError(400, error.message);
      if (error instanceof PlatformError) throw new HttpError(502, error.message);
      if (error instanceof PlatformNetworkError) throw new HttpError(502, `${t.platform.names.youtube}: ${error.message}`);
      throw error;
    }
  }

  // The Graph API reads an Instagram professional account's name and biography but has no call
  // that changes them, so these stay in our database for the operator to apply by hand.
  app.patch('/update-profile-inst/:id', { schema: accountSchemas.updateInstagramProfile }, async (request) => {
    const existing = await accountRow(currentUser(request), request.params.id);
    const { profileName, profileDescription } = parseBody(instagramProfileSchema, request.body);
    await setProfileColumns(db, existing.id, {
      profileNameInstagram: blankToNull(profileName),
      profileDescriptionInstagram: blankToNull(profileDescription),
      updatedAt: new Date(app.clock.now()),
    });
    return detail(currentUser(request), existing.id);
  });

  /** Stops the uploads through the profile first, or refuses with 409: nothing goes live through it after the answer. */
  app.delete('/:id', { schema: accountSchemas.remove }, async (request, reply) => {
    const id = await visibleProfileId(db, currentUser(request), request.params.id);
    const deleted = await deleteStoppingUploads(db, app.clock, 'profile', id, (run) => deleteProfileRow(run, id));
    found(deleted);
    request.log.info({ accountId: id }, 'profile deleted');
    return reply.status(204).send();
  });

  app.put('/:id/slots', { schema: postingSlotsSchemas.save }, async (request) =>
    setSlots(currentUser(request), request.params.id, slotColumns(parseBody(postingSlotsSchema, request.body))),
  );

  app.delete('/:id/slots', { schema: postingSlotsSchemas.clear }, async (request) =>
    setSlots(currentUser(request), request.params.id, inheritedSlotColumns),
  );

  app.get('/:id/video', { schema: accountSchemas.videos }, async (request) => {
    return found(await accountVideoPage(db, currentUser(request), request.params.id, pageFromQuery(request.query)));
  });

  /**
   * The profile's health checked now, as the cron's job checks it (checkProfileHealth): the answer
   * waits for it, each read within its own limit, and carries what it stored. Refused with 409
   * while another check of the profile runs, and with 429 within healthCheckGapMs of its last.
   */
  app.post('/:id/health-check', { schema: accountSchemas.healthCheck }, async (request, reply): Promise<HealthCheckAnswer> => {
    const user = currentUser(request);
    const { id } = await accountRow(user, request.params.id);
    // Never aborted: a check the browser stopped waiting for still stores what it finds.
    const signal = new AbortController().signal;
    const checked = await checkProfileHealth(
      { accountId: id },
      { db, keys, log: request.log, platforms: platforms(), engine: { statsSync }, signal },
      { minGapMs: healthCheckGapMs },
    );
    if (checked.kind === 'running') throw new HttpError(409, t.health.checkRunning);
    if (checked.kind === 'recent') {
      reply.header('retry-after', String(checked.retryAfterSeconds));
      throw new HttpError(429, t.health.checkedRecently(checked.retryAfterSeconds));
    }
    // 'missing': the profile was deleted meanwhile, which detail answers with 404.
    return { account: await detail(user, id), unread: checked.kind === 'checked' ? checked.unread : [] };
  });

  /**
   * YouTube's link, which SPEC has copied, for a channel whose owner may consent on another
   * computer: it leads through this server (`/api/oauth/youtube/start`, routes/oauth.ts), which
   * binds the flow to the browser that opens it and goes on to Google's consent page.
   */
  app.post('/connect-youtube/:id', { schema: accountSchemas.connectYouTube }, async (request): Promise<ConnectYouTubeResponse> => {
    const account = await accountRow(currentUser(request), request.params.id);
    if (!account.isActiveYouTube || !account.youtubeClientId || !account.youtubeClientSecret) {
      throw new HttpError(400, t.youtubeOauth.notReady);
    }
    const { state } = await issueOAuthState(db, 'youtube', account.id, currentUser(request).id, app.clock.now());
    return { url: youtubeConsentLink(oauth.publicUrl(), state, linkSignature(keys.consentCookie, state)) };
  });

  /**
   * TikTok's and Instagram's consent links. The platform need not be switched on yet: the
   * callback switches it on, as a profile connected through a link needs no pasted string or login.
   * The answer binds the flow to the browser that asked (consent-cookie.ts): the SPA, on this
   * origin, gets the cookie and opens the page itself, so a consent given in any other browser,
   * or its code carried to one, is refused at the callback.
   */
  for (const platform of consentPlatformIds) {
    app.post(
      `/connect-${platform}/:id`,
      { schema: accountSchemas.connectLink },
      async (request, reply): Promise<ConnectYouTubeResponse> => {
        const account = await accountRow(currentUser(request), request.params.id);
        const access = platforms();
        const platformApp = (access.apps ?? builtInApps(access.mode))[platform];
        const name = t.platform.names[platform];
        if (!platformApp) throw new HttpError(400, t.connections.appMissing(name, appVariables[platform]));
        const publicUrl = oauth.publicUrl();
        const { state, codeChallenge } = await issueOAuthState(db, platform, account.id, currentUser(request).id, app.clock.now());
        const endpoints = { mode: access.mode, publicUrl, platformsOrigin: oauth.platformsOrigin(), network: access.network };
        const redirectUri = linkRedirectUri(publicUrl, platform);
        reply.header('set-cookie', consentCookieFor(keys.consentCookie, state, redirectUri));
        return { url: linkConnectors[platform].consentUrl(endpoints, platformApp, redirectUri, state, codeChallenge) };
      },
    );
  }
};
