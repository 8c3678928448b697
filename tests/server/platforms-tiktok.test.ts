import { describe, expect, it } from 'vitest';
import { ProfileAuthError } from '../../server/platforms/errors';
import { PlatformNetworkError } from '../../server/net/http';
import { memoryProgressStore } from '../../server/platforms/progress';
import { withRetry } from '../../server/net/retry';
import { tiktok } from '../../server/platforms/tiktok/connector';
import { context, expectEveryRequestProxied, recordingSleep, requestsTo, usePlatformsSandbox, videoFile } from './platforms-helpers';

const inits = '/v2/post/publish/video/init/';

describe('TikTok connector against the sandbox', () => {
  const env = usePlatformsSandbox();
  const credentials = { accessToken: 'sandbox-tt-shorts.studio' };

  it('posts through a SOCKS5 proxy with credentials, caption and hashtags, and reads the exact 64-bit post id', async () => {
    const { video, sha256 } = await videoFile(env(), 'tiktok');
    const result = await tiktok.publish(context(env(), credentials, memoryProgressStore(), env().socksProxy), video);

    const [stored] = env().state.videos;
    expect(result).toEqual({ remoteId: stored.id, url: `https://www.tiktok.com/@sandbox_shorts/video/${stored.id}` });
    expect(stored.id).toMatch(/^\d{19}$/);
    expect(stored).toMatchObject({ bytes: video.size, sha256 });
    expect(stored.title).toBe('Ранкова пробіжка\n\nОпис відео для перевірки\n\n#біг #ранок\n\nvideo-42-tiktok');
    expectEveryRequestProxied(env());
    expect(env().proxy.traffic.every((entry) => entry.via === 'socks5')).toBe(true);
  });

  it('sends a large file in TikTok-sized chunks, the last one carrying the remainder', async () => {
    const size = 21 * 1024 * 1024 + 12_345;
    const { video, sha256 } = await videoFile(env(), 'tiktok', size);
    await tiktok.publish(context(env(), credentials), video);
    expect(requestsTo(env(), 'PUT', '/open-upload.tiktokapis.com/video/')).toBe(2);
    expect(env().state.videos).toEqual([expect.objectContaining({ bytes: size, sha256 })]);
  });

  it('resends a chunk whose connection dropped, within the same publish id', async () => {
    const { video, sha256 } = await videoFile(env(), 'tiktok');
    env().state.faults.push({ platform: 'tiktok', step: 'upload', kind: 'drop-connection' });
    const { pauses, sleep } = recordingSleep();
    const progress = memoryProgressStore();
    await withRetry(() => tiktok.publish(context(env(), credentials, progress), video), { sleep });

    expect(pauses).toHaveLength(1);
    expect(requestsTo(env(), 'POST', inits)).toBe(1);
    expect(env().state.videos).toEqual([expect.objectContaining({ sha256 })]);
  });

  it('a worker killed after the last chunk went in finishes from the saved publish id, or finds the post by its caption', async () => {
    const { video } = await videoFile(env(), 'tiktok');
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'tiktok', step: 'upload', kind: 'drop-response' });
    await expect(tiktok.publish(context(env(), credentials, progress), video)).rejects.toBeInstanceOf(PlatformNetworkError);

    const resumed = await tiktok.publish(context(env(), credentials, progress), video);
    const found = await tiktok.publish(context(env(), credentials, memoryProgressStore()), video);
    expect(found).toEqual(resumed);
    expect(env().state.videos).toHaveLength(1);
    expect(requestsTo(env(), 'POST', inits)).toBe(1);
  });

  it('starts a fresh post when the interrupted one’s upload URL has expired, still posting once', async () => {
    const { video } = await videoFile(env(), 'tiktok');
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'tiktok', step: 'upload', kind: 'drop-connection' });
    await expect(tiktok.publish(context(env(), credentials, progress), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    const saved = progress.entries.get(video.publishKey) as { uploadUrl: string };
    await progress.save(video.publishKey, {
      ...saved,
      uploadUrl: saved.uploadUrl.replace(/upload_token=[^&]+/, 'upload_token=expired'),
    });

    await tiktok.publish(context(env(), credentials, progress), video);
    expect(requestsTo(env(), 'POST', inits)).toBe(2);
    expect(env().state.videos).toHaveLength(1);
  });

  it('a saved publish id TikTok no longer knows: the live post is found by its caption, else it posts once afresh', async () => {
    const { video } = await videoFile(env(), 'tiktok');
    const progress = memoryProgressStore();
    env().state.faults.push({ platform: 'tiktok', step: 'status', kind: 'drop-connection' });
    await expect(tiktok.publish(context(env(), credentials, progress), video)).rejects.toBeInstanceOf(PlatformNetworkError);
    const saved = progress.entries.get(video.publishKey) as { publishId: string };
    const forgotten = { ...saved, publishId: 'v_pub_file~v2-1.0000000000000000000' };

    // The upload went through before the crash: the same post comes back, nothing is uploaded again.
    await progress.save(video.publishKey, forgotten);
    const found = await tiktok.publish(context(env(), credentials, progress), video);
    expect(found.remoteId).toBe(env().state.videos[0]!.id);
    expect(requestsTo(env(), 'POST', inits)).toBe(1);

    // It never became a post: one new upload.
    env().state.videos.splice(0);
    await progress.save(video.publishKey, forgotten);
    await tiktok.publish(context(env(), credentials, progress), video);
    expect(requestsTo(env(), 'POST', inits)).toBe(2);
    expect(env().state.videos).toHaveLength(1);
  });

  it('honours Retry-After on 429', async () => {
    const { video } = await videoFile(env(), 'tiktok');
    env().state.faults.push({ platform: 'tiktok', step: 'init', kind: 'status-429', retryAfterSeconds: 3 });
    const { pauses, sleep } = recordingSleep();
    await withRetry(() => tiktok.publish(context(env(), credentials), video), { sleep });
    expect(pauses).toEqual([3000]);
    expect(env().state.videos).toHaveLength(1);
  });

  it('has no refresh for an access string: a rejected one is a ProfileAuthError at once', async () => {
    const { video } = await videoFile(env(), 'tiktok');
    const error = await withRetry(() => tiktok.publish(context(env(), { accessToken: 'not-a-sandbox-token' }), video)).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(ProfileAuthError);
    expect(error.message).toBe(
      'TikTok: Доступ до акаунта відкликано або він недійсний, підключіть профіль знову (access_token_invalid: The access token is invalid or not found in the request.)',
    );
    expect(env().state.requests).toHaveLength(1);
  });

  it('reads views, likes and comments through video/query', async () => {
    const { video } = await videoFile(env(), 'tiktok');
    const { remoteId } = await tiktok.publish(context(env(), credentials), video);
    env().clock.now += 10 * 60 * 1000;
    const stats = await tiktok.fetchStats(context(env(), credentials), remoteId);
    expect(stats.views).toBeGreaterThanOrEqual(300);
    expect(stats).toEqual({
      views: stats.views,
      likes: Math.floor(stats.views / 12),
      comments: Math.floor(stats.views / 60),
    });
  });
});
