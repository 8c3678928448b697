import crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { PermanentPlatformError, ProfileAuthError, quotaRetryMs, TransientPlatformError } from '../../server/platforms/errors';
import { PlatformNetworkError } from '../../server/net/http';
import { memoryProgressStore } from '../../server/platforms/progress';
import { withRetry } from '../../server/net/retry';
import * as t from '../../src/lib/i18n';
import { issueSandboxToken } from '../../server/sandbox/index';
import { youtube } from '../../server/platforms/youtube/connector';
import { context, expectEveryRequestProxied, recordingSleep, requestsTo, usePlatformsSandbox, videoFile } from './platforms-helpers';
import { testNetwork } from './helpers';

const uploadInits = '/upload/youtube/v3/videos?uploadType=resumable';

describe('YouTube connector against the sandbox', () => {
  const env = usePlatformsSandbox();
  const credentials = (account = 'channel@example.com') => ({ accessToken: issueSandboxToken('youtube', account) });

  it('uploads through the profile proxy with title, description and tags, and keeps every byte', async () => {
    const { video, sha256 } = await videoFile(env(), 'youtube');
    const result = await youtube.publish(context(env(), credentials()), video);

    expect(result.url).toBe(`https://www.youtube.com/shorts/${result.remoteId}`);
    const stored = env().state.videos;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: result.remoteId,
      title: video.title,
      description: video.description,
      tags: ['video-42-youtube', 'біг', 'ранок'],
      bytes: video.size,
      sha256,
    });
    expectEveryRequestProxied(env());
    expect(env().proxy.traffic.every((entry) => entry.via === 'connect')).toBe(true);
  });

  it('publishes once per publish key: a repeat returns the saved result, a fresh worker finds the upload by its tag', async () => {
    const { video } = await videoFile(env(), 'youtube');
    const progress = memoryProgressStore();
    const first = await youtube.publish(context(env(), credentials(), progress), video);
    expect(await youtube.publish(context(env(), credentials(), progress), video)).toEqual(first);
    expect(await youtube.publish(context(env(), credentials(), memoryProgressStore()), video)).toEqual(first);
    expect(env().state.videos).toHaveLength(1);
    expect(requestsTo(env(), 'POST', uploadInits)).toBe(1);
  });

  it('resumes a dropped upload from the byte the platform has instead of starting over', async () => {
    const { video, sha256 } = await videoFile(env(), 'youtube');
    env().state.faults.push({ platform: 'youtube', step: 'upload', kind: 'drop-connection', afterBytes: 120_000 });
    const { pauses, sleep } = recordingSleep();
    const progress = memoryProgressStore();

    const result = await withRetry(() => youtube.publish(context(env(), credentials(), progress), video), {
      sleep,
      random: () => 0.5,
    });

    expect(pauses).toEqual([750]);
    expect(requestsTo(env(), 'POST', uploadInits)).toBe(1);
    expect(env().state.videos).toEqual([expect.objectContaining({ id: result.remoteId, bytes: video.size, sha256 })]);
    const session = [...env().state.sessions.youtube.values()].find(
      (upload) => (upload as { done?: { id: string } }).done?.id === result.remoteId,
    )!;
    expect(session.received).toBe(video.size);
  });

  it('a worker killed mid-upload is succeeded by one that resumes the same session', async () => {
    const { video, sha256 } = await videoFile(env(), 'youtube');
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'youtube', step: 'upload', kind: 'drop-connection', afterBytes: 100_000 });
    await expect(youtube.publish(context(env(), credentials(), progress), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    expect(env().state.videos).toHaveLength(0);

    const result = await youtube.publish(context(env(), credentials(), progress), video);
    expect(env().state.videos).toEqual([expect.objectContaining({ id: result.remoteId, sha256 })]);
    expect(requestsTo(env(), 'POST', uploadInits)).toBe(1);
  });

  it('a worker killed after YouTube accepted the upload but before anything was recorded does not upload twice', async () => {
    const { video } = await videoFile(env(), 'youtube');
    env().state.faults.push({ platform: 'youtube', step: 'upload', kind: 'drop-response' });
    await expect(youtube.publish(context(env(), credentials()), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    expect(env().state.videos).toHaveLength(1);

    const result = await youtube.publish(context(env(), credentials(), memoryProgressStore()), video);
    expect(result.remoteId).toBe(env().state.videos[0].id);
    expect(env().state.videos).toHaveLength(1);
    expect(requestsTo(env(), 'POST', uploadInits)).toBe(1);
  });

  it('waits out 429 with its Retry-After and backs off exponentially on 500s', async () => {
    const { video } = await videoFile(env(), 'youtube');
    env().state.faults.push({ platform: 'youtube', step: 'init', kind: 'status-429', retryAfterSeconds: 7 });
    env().state.faults.push({ platform: 'youtube', step: 'upload', kind: 'status-500', times: 2 });
    const { pauses, sleep } = recordingSleep();

    await withRetry(() => youtube.publish(context(env(), credentials()), video), {
      sleep,
      random: () => 1,
      baseDelayMs: 1000,
    });

    expect(pauses).toEqual([7000, 2000, 4000]);
    expect(env().state.videos).toHaveLength(1);
  });

  it('stops at a quota error and hands back when to try again', async () => {
    const { video } = await videoFile(env(), 'youtube');
    env().state.faults.push({ platform: 'youtube', step: 'init', kind: 'quota' });
    const { pauses, sleep } = recordingSleep();
    const error = await withRetry(() => youtube.publish(context(env(), credentials()), video), { sleep }).catch((caught) => caught);

    expect(error).toBeInstanceOf(TransientPlatformError);
    expect(error.retryAfterMs).toBe(quotaRetryMs);
    expect(error.message).toBe(
      'YouTube: Вичерпано ліміт платформи, повторимо пізніше (The request cannot be completed because you have exceeded your quota.)',
    );
    expect(pauses).toEqual([]);
  });

  it('refreshes the access token once after a 401 and carries on with the new one', async () => {
    const { video } = await videoFile(env(), 'youtube');
    env().state.faults.push({ platform: 'youtube', step: 'init', kind: 'unauthorized' });
    const renewRejectedToken = vi.fn(async () => issueSandboxToken('youtube', 'channel@example.com'));
    await youtube.publish(context(env(), { ...credentials(), renewRejectedToken }), video);
    expect(renewRejectedToken).toHaveBeenCalledTimes(1);
    expect(env().state.videos).toHaveLength(1);
  });

  it('raises ProfileAuthError when the grant is revoked, after one refresh', async () => {
    const { video } = await videoFile(env(), 'youtube');
    env().state.revoke('youtube', Buffer.from('revoked@example.com').toString('base64url'));
    const renewRejectedToken = vi.fn(async () => issueSandboxToken('youtube', 'revoked@example.com'));
    const error = await youtube
      .publish(context(env(), { ...credentials('revoked@example.com'), renewRejectedToken }), video)
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ProfileAuthError);
    expect(error.message).toBe(
      'YouTube: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову (Request had invalid authentication credentials.)',
    );
    expect(renewRejectedToken).toHaveBeenCalledTimes(1);
    expect(env().state.videos).toHaveLength(0);
  });

  it('ends a refused upload as permanent with YouTube’s own message', async () => {
    const { video } = await videoFile(env(), 'youtube');
    const error = await withRetry(() => youtube.publish(context(env(), credentials()), { ...video, title: '' })).catch((caught) => caught);
    expect(error).toBeInstanceOf(PermanentPlatformError);
    expect(error.message).toBe('YouTube: Платформа відхилила запит (The request metadata specifies an invalid or empty video title.)');
  });

  it('refuses what videos.insert would refuse before sending anything, in the posting rules’ words, instead of altering it', async () => {
    const { video } = await videoFile(env(), 'youtube');
    const cases: [Partial<typeof video>, string][] = [
      [{ title: 'a <b> c' }, t.postingRules.angleBrackets.title],
      [{ description: '1 > 0' }, t.postingRules.angleBrackets.description],
      [{ description: 'я'.repeat(2501) }, t.postingRules.descriptionTooLong(5002, 5000)],
      [{ options: { youtube: { ...video.options.youtube, categoryId: '999' } } }, t.postingRules.categoryNotAssignable('999')],
    ];
    for (const [change, words] of cases) {
      const error = await youtube.publish(context(env(), credentials()), { ...video, ...change }).catch((caught) => caught);
      expect(error, JSON.stringify(change).slice(0, 60)).toBeInstanceOf(PermanentPlatformError);
      expect(error.message).toBe(`YouTube: ${words}`);
    }
    expect(env().state.videos).toHaveLength(0);
  });

  it('reads statistics that grow with time since upload', async () => {
    const { video } = await videoFile(env(), 'youtube');
    const { remoteId } = await youtube.publish(context(env(), credentials()), video);
    expect(await youtube.fetchStats(context(env(), credentials()), remoteId)).toEqual({
      views: 0,
      likes: 0,
      comments: 0,
    });
    env().clock.now += 60 * 60 * 1000;
    const later = await youtube.fetchStats(context(env(), credentials()), remoteId);
    expect(later.views).toBeGreaterThanOrEqual(1800);
    expect(later).toEqual({
      views: later.views,
      likes: Math.floor(later.views / 12),
      comments: Math.floor(later.views / 60),
    });
  });

  it('updates the channel description through brandingSettings', async () => {
    await youtube.updateChannelDescription(context(env(), credentials()), 'Новий опис каналу');
    const channel = await youtube.fetchChannel(context(env(), credentials()));
    expect(channel).toEqual({
      id: expect.stringMatching(/^UC[\w-]{22}$/),
      name: 'Тестовий акаунт channel@example.com',
      description: 'Новий опис каналу',
      url: `https://www.youtube.com/channel/${channel.id}`,
    });
    expectEveryRequestProxied(env());
  });

  it('accepts uploadType=multipart as Google’s client library sends it', async () => {
    const media = crypto.randomBytes(50_000);
    const boundary = crypto.randomBytes(8).toString('hex');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ snippet: { title: 'Multipart', tags: ['a'] } })}\r\n`,
      ),
      Buffer.from(`--${boundary}\r\nContent-Type: video/mp4\r\n\r\n`),
      media,
      Buffer.from(`\r\n--${boundary}--`),
    ]);
    const response = await testNetwork().fetch(
      env().httpProxy,
      `${env().endpoints['www.googleapis.com']}/upload/youtube/v3/videos?part=snippet,status&uploadType=multipart`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${credentials().accessToken}`,
          'content-type': `multipart/related; boundary="${boundary}"`,
        },
        body,
      },
    );
    expect(response.status).toBe(200);
    const resource = (await response.json()) as { id: string; snippet: { title: string } };
    expect(resource.snippet.title).toBe('Multipart');
    expect(env().state.videos).toEqual([
      expect.objectContaining({
        id: resource.id,
        bytes: media.length,
        sha256: crypto.createHash('sha256').update(media).digest('hex'),
      }),
    ]);
  });
});
