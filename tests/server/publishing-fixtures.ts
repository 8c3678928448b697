import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { expect, vi } from 'vitest';
import type { PublishPayload, SelectOption, UploadDetail } from '../../src/lib/contract';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { parsePublishDate } from '../../server/services/publishing/publish-date';
import type { TestEnv } from './helpers';

/**
 * A Kyiv day `days` after today at the wall time `time` ('HH:mm'), as the publish form sends a
 * date, and the moment it names. Publishes and moves take dates from now to a year ahead, so a
 * test's dates are counted from its clock rather than written as years.
 */
export function kyivDay(days: number, time: string, now = Date.now()): { wall: string; iso: string } {
  const wall = `${kyivWallTime(now + days * 86_400_000).slice(0, 10)}T${time}`;
  return { wall, iso: parsePublishDate(wall)!.toISOString() };
}

export interface RenderedRequest {
  id: number;
  idUpload: string;
  videos: { id: number; fileKey: string; size: number }[];
}

/**
 * A creation request whose variants are "rendered": rows as the render job leaves them and a
 * file of random bytes each, which is all the platforms check (sizes and hashes, not codecs).
 */
export async function renderedRequest(env: TestEnv, userId: number, count = 2, size = 64_000): Promise<RenderedRequest> {
  const idUpload = crypto.randomUUID();
  const { rows } = await env.db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES ($1, $2, 'success', $3, 'gone') RETURNING id`,
    [idUpload, userId, count],
  );
  const requestId = rows[0].id as number;
  const scratch = await env.media.storage.scratch();
  const videos: RenderedRequest['videos'] = [];
  try {
    for (let position = 0; position < count; position++) {
      const fileKey = `requests/${idUpload}/${position}.mp4`;
      const file = scratch.file(`${position}.mp4`);
      await fs.writeFile(file, crypto.randomBytes(size));
      await env.media.storage.put(fileKey, file);
      const video = await env.db.sql(
        `INSERT INTO videos (request_id, user_id, position, status, file_key) VALUES ($1, $2, $3, 'noactive', $4) RETURNING id`,
        [requestId, userId, position, fileKey],
      );
      videos.push({ id: video.rows[0].id as number, fileKey, size });
    }
  } finally {
    await scratch.dispose();
  }
  return { id: requestId, idUpload, videos };
}

export const option = (id: number): SelectOption => ({ id, title: `#${id}`, value: id });

/** The publish form as the client sends it: every video on 'Будь-який', YouTube only, at once. */
export function publishPayload(request: RenderedRequest, accountIds: number[], overrides: Partial<PublishPayload> = {}): PublishPayload {
  return {
    title: 'Ранкова пробіжка',
    description: 'Опис для платформ',
    tags: ['біг', 'ранок'],
    accounts: accountIds.map(option),
    video: request.videos.map((video) => ({
      id: video.id,
      url: `/api/media/${video.fileKey}`,
      idUpload: request.idUpload,
      createdAt: '2026-11-22T10:00:00.000Z',
      account: null,
      date: null,
    })),
    inYouTube: true,
    inTikTok: false,
    inInstagram: false,
    date: null,
    ...overrides,
  };
}

/**
 * The set `idUpload` once it and each of its videos is published or failed: a set still publishing
 * can hold a video already done.
 */
export async function settledSet(env: TestEnv, headers: Record<string, string>, idUpload: string): Promise<UploadDetail> {
  let detail: UploadDetail | undefined;
  const done = (status: string) => status === 'success' || status === 'error';
  await vi.waitFor(
    async () => {
      const response = await env.app.inject({ method: 'GET', url: `/api/upload-video/${idUpload}`, headers });
      detail = response.json<UploadDetail>();
      expect(done(detail.status) && detail.video.every((video) => done(video.status))).toBe(true);
    },
    { timeout: 30_000, interval: 100 },
  );
  return detail!;
}
