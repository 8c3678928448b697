import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ProfilePostingRules } from '../../src/lib/contract';
import { t } from '../messages';
import { postOptionsSchema } from '../../src/lib/schemas';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import type { PlatformAccess } from '../platforms/profile-context';
import { saveDefaults, savedDefaults, type CreatorRulesReader } from '../services/publishing/posting-rules';
import { accountOption } from '../services/profiles/account-views';
import { visibleProfileRows, type ProfileRow } from '../services/profiles/profile-rows';
import { platformsOf } from '../services/publishing/publication-plan';
import { everyPlatformTicked as everyPlatform } from '../../src/lib/assignment';
import { postingRulesSchemas } from '../../src/lib/contract/posting-rules';

const maxProfiles = 50;

/**
 * What the publish form shows per chosen profile before anything is sent: TikTok's creator_info
 * (nickname, privacy levels offered, switches the creator turned off, longest video) read through
 * the profile's own proxy, and the choices the operator remembered for the profile.
 */
export const postingRulesRoutes: FastifyPluginAsyncTypebox<{
  platforms: () => PlatformAccess;
  readCreatorRules: CreatorRulesReader;
}> = async (app, { platforms, readCreatorRules }) => {
  const { db, keys } = app;
  app.addHook('onRequest', requireUser);

  async function rulesOf(rows: ProfileRow[]): Promise<ProfilePostingRules[]> {
    const saved = await savedDefaults(
      db,
      rows.map((row) => row.id),
    );
    return Promise.all(
      rows.map(async (row) => {
        const active = platformsOf(everyPlatform, row);
        const creator = active.includes('tiktok')
          ? await readCreatorRules(row, platforms(), keys.secretsAtRest, false)
          : { rules: null, error: null };
        return {
          accountId: row.id,
          title: accountOption(row).title,
          platforms: active,
          tiktok: creator.rules,
          tiktokError: creator.error,
          saved: saved.get(row.id)!,
        };
      }),
    );
  }

  async function ownedProfiles(request: Parameters<typeof currentUser>[0], ids: number[]) {
    const rows = await visibleProfileRows(db, currentUser(request), ids);
    if (rows.length !== ids.length) throw new HttpError(404, t.publish.unknownAccount);
    return ids.map((id) => rows.find((row) => row.id === id)!);
  }

  app.get('/', { schema: postingRulesSchemas.list }, async (request) => {
    const { accountIds } = request.query;
    const ids = [...new Set(accountIds.split(',').map(Number))];
    if (ids.length > maxProfiles || ids.some((id) => !Number.isSafeInteger(id) || id < 1))
      throw new HttpError(400, t.publish.unknownAccount);
    return { data: await rulesOf(await ownedProfiles(request, ids)) };
  });

  app.put('/:id', { schema: postingRulesSchemas.save }, async (request) => {
    const { id } = request.params;
    const [profile] = await ownedProfiles(request, [id]);
    await saveDefaults(db, profile!.id, parseBody(postOptionsSchema, request.body), new Date(app.clock.now()));
    const [rules] = await rulesOf([profile!]);
    return { data: rules! };
  });
};
