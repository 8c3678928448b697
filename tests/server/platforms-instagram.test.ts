import { describe, expect, it, vi } from 'vitest';
import { PermanentPlatformError, ProfileAuthError, quotaRetryMs, TransientPlatformError } from '../../server/platforms/errors';
import { PlatformNetworkError } from '../../server/net/http';
import { instagram, sandboxInstagramLogin } from '../../server/platforms/instagram/connector';
import { memoryProgressStore } from '../../server/platforms/progress';
import { withRetry } from '../../server/net/retry';
import type { InstagramCredentials } from '../../server/platforms/types';
import * as t from '../../src/lib/i18n';
import { context, expectEveryRequestProxied, recordingSleep, requestsTo, usePlatformsSandbox, videoFile } from './platforms-helpers';
import { testNetwork } from './helpers';

const containers = (igUserId: string) => new RegExp(`/graph\\.facebook\\.com/v22\\.0/${igUserId}/media$`);

describe('Instagram connector against the sandbox', () => {
  const env = usePlatformsSandbox();
  const logIn = async (login = 'reels.maker'): Promise<InstagramCredentials> =>
    sandboxInstagramLogin(testNetwork(), env().httpProxy, env().endpoints, login, 'instagram-password');

  it('logs in the sandbox way, then posts a Reel through the profile proxy', async () => {
    const credentials = await logIn();
    expect(credentials).toEqual({
      accessToken: expect.stringMatching(/^sandbox-ig-/),
      igUserId: expect.stringMatching(/^\d{17}$/),
    });
    const { video, sha256 } = await videoFile(env(), 'instagram');
    const result = await instagram.publish(context(env(), credentials), video);

    const [stored] = env().state.videos;
    expect(result).toEqual({
      remoteId: stored.id,
      url: expect.stringMatching(/^https:\/\/www\.instagram\.com\/reel\/[\w-]{11}\/$/),
    });
    expect(stored).toMatchObject({ url: result.url, bytes: video.size, sha256 });
    expect(stored.description).toBe('Ранкова пробіжка\n\nОпис відео для перевірки\n\n#біг #ранок\n\nvideo-42-instagram');
    expectEveryRequestProxied(env());
  });

  it('refuses a caption of more than 30 hashtags before making a container, counting the description’s own, instead of cutting the tags', async () => {
    const credentials = await logIn();
    const { video } = await videoFile(env(), 'instagram');
    const description = Array.from({ length: 12 }, (_, index) => `#опис${index}`).join(' ');
    const tags = Array.from({ length: 30 }, (_, index) => `tag${index}`);
    const error = await instagram.publish(context(env(), credentials), { ...video, description, tags }).catch((caught) => caught);
    expect(error).toBeInstanceOf(PermanentPlatformError);
    expect(error.message).toBe(`Instagram: ${t.postingRules.tooManyHashtags(42, 30)}`);
    expect(requestsTo(env(), 'POST', containers(credentials.igUserId))).toBe(0);

    await instagram.publish(context(env(), credentials), { ...video, description: '#опис', tags: tags.slice(0, 29) });
    expect(env().state.videos[0]!.description.match(/#/g)).toHaveLength(30);
  });

  it('re-sends bytes into the same container after a dropped upload: one container, one Reel', async () => {
    const credentials = await logIn();
    const { video, sha256 } = await videoFile(env(), 'instagram');
    env().state.faults.push({ platform: 'instagram', step: 'upload', kind: 'drop-connection' });
    const { pauses, sleep } = recordingSleep();
    const progress = memoryProgressStore();
    await withRetry(() => instagram.publish(context(env(), credentials, progress), video), { sleep });

    expect(pauses).toHaveLength(1);
    expect(requestsTo(env(), 'POST', containers(credentials.igUserId))).toBe(1);
    expect(env().state.videos).toEqual([expect.objectContaining({ sha256 })]);
  });

  it('when media_publish went through but its answer was lost, the next worker finds the Reel instead of posting again', async () => {
    const credentials = await logIn();
    const { video } = await videoFile(env(), 'instagram');
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'instagram', step: 'publish', kind: 'drop-response' });
    await expect(instagram.publish(context(env(), credentials, progress), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    expect(env().state.videos).toHaveLength(1);

    const resumed = await instagram.publish(context(env(), credentials, progress), video);
    expect(resumed).toEqual({ remoteId: env().state.videos[0].id, url: env().state.videos[0].url });
    expect(await instagram.publish(context(env(), credentials, memoryProgressStore()), video)).toEqual(resumed);
    expect(env().state.videos).toHaveLength(1);
    expect(requestsTo(env(), 'POST', '/media_publish')).toBe(1);
  });

  it('a saved container Instagram no longer knows is started afresh, still one Reel', async () => {
    const credentials = await logIn();
    const { video, sha256 } = await videoFile(env(), 'instagram');
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'instagram', step: 'upload', kind: 'drop-connection' });
    await expect(instagram.publish(context(env(), credentials, progress), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    const saved = progress.entries.get(video.publishKey) as { containerId: string };
    await progress.save(video.publishKey, { ...saved, containerId: '10000000000000000' });

    await instagram.publish(context(env(), credentials, progress), video);
    expect(requestsTo(env(), 'POST', containers(credentials.igUserId))).toBe(2);
    expect(env().state.videos).toEqual([expect.objectContaining({ sha256 })]);
  });

  it('reads the Graph API’s expired-session error (code 190) as a reason to refresh once', async () => {
    const credentials = await logIn();
    const { video } = await videoFile(env(), 'instagram');
    env().state.faults.push({ platform: 'instagram', step: 'list', kind: 'unauthorized' });
    const renewRejectedToken = vi.fn(async () => (await logIn()).accessToken);
    await instagram.publish(context(env(), { ...credentials, renewRejectedToken }), video);
    expect(renewRejectedToken).toHaveBeenCalledTimes(1);
    expect(env().state.videos).toHaveLength(1);
  });

  it('raises ProfileAuthError for a revoked session', async () => {
    const credentials = await logIn('revoked.account');
    env().state.revoke('instagram', Buffer.from('revoked.account').toString('base64url'));
    const { video } = await videoFile(env(), 'instagram');
    const error = await instagram.publish(context(env(), credentials), video).catch((caught) => caught);
    expect(error).toBeInstanceOf(ProfileAuthError);
    expect(error.message).toMatch(
      /^Instagram: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову \(Error validating access token/,
    );
  });

  it('treats the daily publishing limit as a later retry', async () => {
    const credentials = await logIn();
    const { video } = await videoFile(env(), 'instagram');
    env().state.faults.push({ platform: 'instagram', step: 'init', kind: 'quota' });
    const error = await instagram.publish(context(env(), credentials), video).catch((caught) => caught);
    expect(error).toBeInstanceOf(TransientPlatformError);
    expect(error.retryAfterMs).toBe(quotaRetryMs);
  });

  it('reads views, likes and comments from the Reel’s insights, and the profile as it stands on Instagram', async () => {
    const credentials = await logIn();
    const { video } = await videoFile(env(), 'instagram');
    const { remoteId } = await instagram.publish(context(env(), credentials), video);
    env().clock.now += 2 * 60 * 60 * 1000;
    const stats = await instagram.fetchStats(context(env(), credentials), remoteId);
    expect(stats.views).toBeGreaterThanOrEqual(3600);
    expect(stats).toEqual({
      views: stats.views,
      likes: Math.floor(stats.views / 12),
      comments: Math.floor(stats.views / 60),
    });

    expect(await instagram.fetchProfile(context(env(), credentials))).toEqual({
      id: credentials.igUserId,
      name: 'Тестовий акаунт reels.maker',
      description: '',
      url: 'https://www.instagram.com/reels.maker/',
    });
  });
});
