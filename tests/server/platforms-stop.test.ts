import { describe, expect, it } from 'vitest';
import { PermanentPlatformError, PublishStopped, StopRequested } from '../../server/platforms/errors';
import { instagram, sandboxInstagramLogin } from '../../server/platforms/instagram/connector';
import { memoryProgressStore } from '../../server/platforms/progress';
import { issueSandboxToken } from '../../server/sandbox/index';
import { tiktok } from '../../server/platforms/tiktok/connector';
import type { PublishProgressStore } from '../../server/platforms/types';
import { youtube } from '../../server/platforms/youtube/connector';
import { context, requestsTo, usePlatformsSandbox, videoFile } from './platforms-helpers';
import { testNetwork } from './helpers';

/** A progress store that also keeps every state it was given, so a test can go back to one. */
function recordingProgress(): PublishProgressStore & { saved: object[] } {
  const store = memoryProgressStore();
  const saved: object[] = [];
  return {
    saved,
    load: (key) => store.load(key),
    save: async (key, progress) => {
      saved.push(structuredClone(progress));
      await store.save(key, progress);
    },
  };
}

/** A store holding one saved state, as a worker killed at that point would have left it. */
async function progressAt(key: string, progress: object): Promise<PublishProgressStore> {
  const store = memoryProgressStore();
  await store.save(key, progress);
  return store;
}

function stopped(): AbortSignal {
  const controller = new AbortController();
  controller.abort(new StopRequested());
  return controller.signal;
}

describe('A publish stopped because its post is deleted', () => {
  const env = usePlatformsSandbox();

  it('YouTube: a session that completed is undone with videos.delete, so nothing stays live', async () => {
    const credentials = { accessToken: issueSandboxToken('youtube', 'stop@example.com') };
    const { video } = await videoFile(env(), 'youtube');
    const progress = recordingProgress();
    await youtube.publish(context(env(), credentials, progress), video);
    expect(env().state.videos).toHaveLength(1);
    const session = progress.saved.find((state) => 'uploadUrl' in state)!;

    const error = await youtube
      .publish({ ...context(env(), credentials, await progressAt(video.publishKey, session)), signal: stopped() }, video)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PublishStopped);
    expect(error).toMatchObject({ live: false });
    expect(env().state.videos).toHaveLength(0);
    expect(requestsTo(env(), 'DELETE', '/youtube/v3/videos?id=')).toBe(1);
  });

  it('YouTube: a session short of its last byte is left alone (it never becomes a video) and kept for a resume', async () => {
    const credentials = { accessToken: issueSandboxToken('youtube', 'stop@example.com') };
    const { video } = await videoFile(env(), 'youtube');
    const progress = recordingProgress();
    env().state.faults.push({ platform: 'youtube', step: 'upload', kind: 'drop-connection', afterBytes: 100_000 });
    await expect(youtube.publish(context(env(), credentials, progress), video)).rejects.toThrow();
    const session = progress.saved.find((state) => 'uploadUrl' in state)!;
    const kept = await progressAt(video.publishKey, session);

    await expect(youtube.publish({ ...context(env(), credentials, kept), signal: stopped() }, video)).rejects.toMatchObject({
      live: false,
    });
    expect(env().state.videos).toHaveLength(0);
    expect(await kept.load(video.publishKey)).toEqual(session);
    expect(requestsTo(env(), 'DELETE', '/youtube/v3/videos')).toBe(0);
  });

  it('TikTok: a publish with every byte is past the point of no return; one short of bytes will never post', async () => {
    const credentials = { accessToken: issueSandboxToken('tiktok', 'stop-tiktok') };
    const { video } = await videoFile(env(), 'tiktok');
    const complete = recordingProgress();
    await tiktok.publish(context(env(), credentials, complete), video);
    const started = complete.saved.find((state) => 'publishId' in state)!;
    await expect(
      tiktok.publish({ ...context(env(), credentials, await progressAt(video.publishKey, started)), signal: stopped() }, video),
    ).rejects.toMatchObject({ live: true });

    const { video: second } = await videoFile(env(), 'tiktok', 300_000, 43);
    const short = recordingProgress();
    env().state.faults.push({ platform: 'tiktok', step: 'upload', kind: 'drop-connection', afterBytes: 100_000 });
    await expect(tiktok.publish(context(env(), credentials, short), second)).rejects.toThrow();
    const halfway = short.saved.find((state) => 'publishId' in state)!;
    await expect(
      tiktok.publish({ ...context(env(), credentials, await progressAt(second.publishKey, halfway)), signal: stopped() }, second),
    ).rejects.toMatchObject({ live: false });
    expect(env().state.videos.map((posted) => posted.bytes)).toEqual([video.size]);
  });

  it('Instagram: a finished container is never published once stopped', async () => {
    const credentials = await sandboxInstagramLogin(testNetwork(), env().httpProxy, env().endpoints, 'stop.reels', 'instagram-password');
    const { video } = await videoFile(env(), 'instagram');
    const progress = recordingProgress();
    // media_publish refused once: the container is uploaded and finished, and not published.
    env().state.faults.push({ platform: 'instagram', step: 'publish', kind: 'status-500' });
    await expect(instagram.publish(context(env(), credentials, progress), video)).rejects.toThrow();
    const container = progress.saved.findLast((state) => 'containerId' in state)!;
    expect(container).toMatchObject({ uploaded: true });

    await expect(
      instagram.publish({ ...context(env(), credentials, await progressAt(video.publishKey, container)), signal: stopped() }, video),
    ).rejects.toMatchObject({ live: false });
    expect(requestsTo(env(), 'POST', '/media_publish')).toBe(1);
    expect(env().state.videos).toHaveLength(0);
  });

  it('an abort for any other reason (expiry, shutdown) is not a stop: nothing is cleaned up', async () => {
    const credentials = { accessToken: issueSandboxToken('youtube', 'stop@example.com') };
    const { video } = await videoFile(env(), 'youtube');
    const controller = new AbortController();
    controller.abort(new Error('expired'));
    const error = await youtube.publish({ ...context(env(), credentials), signal: controller.signal }, video).catch((caught) => caught);
    expect(error).not.toBeInstanceOf(PublishStopped);
    expect(error).not.toBeInstanceOf(PermanentPlatformError);
    expect(env().state.requests).toHaveLength(0);
  });
});
