import { expect, it } from 'vitest';
import type { AccountSummary, CreationRequestRow, Paged, UploadRow } from '../../src/lib/contract';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase } from './helpers';

/**
 * The request, published-set and profile lists narrowed by the operator's search, status and
 * platform, as their URLs carry them: only the operator's own rows, counted and paged like the
 * unfiltered lists.
 */
describeEachDatabase('Lists narrowed by search, status and platform', (env) => {
  interface Seed {
    name: string;
    status: 'loading' | 'success' | 'error' | 'published';
    title?: string;
    /** The statuses of the set's videos, for a published one. */
    videos?: string[];
    youtube?: boolean;
  }

  async function seed(user: TestUser, rows: Seed[]) {
    for (const row of rows) {
      const { rows: inserted } = await env().db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key, source_name, status, title, in_youtube, in_instagram)
         VALUES (gen_random_uuid(), $1, $2, 'source', $3, $4, $5, $6, NOT $6) RETURNING id`,
        [user.id, row.videos?.length ?? 1, row.name, row.status, row.title ?? null, row.youtube ?? false],
      );
      const id = inserted[0].id;
      for (const [position, status] of (row.videos ?? []).entries()) {
        // Published videos carry their publication date; only those count as gone out.
        await env().db.sql(`INSERT INTO videos (request_id, user_id, position, status, date) VALUES ($1, $2, $3, $4, now())`, [
          id,
          user.id,
          position,
          status,
        ]);
      }
      if (row.status === 'published') await env().db.sql(`UPDATE creation_requests SET published_at = now() WHERE id = $1`, [id]);
    }
  }

  async function list<T>(user: TestUser, url: string) {
    const response = await env().app.inject({ url, headers: user.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Paged<T>>();
  }

  it('finds requests by file name and UUID and narrows them by status, never showing another operator’s', async () => {
    const anna = await createUser(env(), 'anna');
    const boris = await createUser(env(), 'boris');
    await seed(anna, [
      { name: 'ранок-біг.mp4', status: 'success' },
      { name: 'вечір.mp4', status: 'error' },
      { name: 'Ранок_2.mp4', status: 'error' },
      { name: '100%_ready.mp4', status: 'loading' },
    ]);
    await seed(boris, [{ name: 'ранок-бориса.mp4', status: 'error' }]);

    const byName = await list<CreationRequestRow>(anna, `/api/create-video?q=${encodeURIComponent('ранок')}`);
    expect(byName.data.map((row) => row.sourceName)).toEqual(['Ранок_2.mp4', 'ранок-біг.mp4']);
    expect(byName.total).toBe(2);
    const failed = await list<CreationRequestRow>(anna, '/api/create-video?status=error');
    expect(failed.data.map((row) => row.sourceName)).toEqual(['Ранок_2.mp4', 'вечір.mp4']);
    const both = await list<CreationRequestRow>(anna, `/api/create-video?status=error&q=${encodeURIComponent('РАНОК')}`);
    expect(both.data.map((row) => row.sourceName)).toEqual(['Ранок_2.mp4']);
    // The operator's % and _ are letters, not patterns.
    expect((await list<CreationRequestRow>(anna, '/api/create-video?q=%25_')).data.map((row) => row.sourceName)).toEqual([
      '100%_ready.mp4',
    ]);
    const byId = await list<CreationRequestRow>(anna, `/api/create-video?q=${byName.data[0]!.idUpload.slice(0, 8)}`);
    expect(byId.data.map((row) => row.idUpload)).toEqual([byName.data[0]!.idUpload]);
    expect((await list<CreationRequestRow>(anna, '/api/create-video?q=nothing-like-this')).data).toEqual([]);
  });

  it('pages a filtered list and counts it, also past its end', async () => {
    const user = await createUser(env(), 'operator');
    await seed(
      user,
      Array.from({ length: 23 }, (_, index) => ({
        name: `clip-${index}.mp4`,
        status: index % 2 === 0 ? ('error' as const) : ('success' as const),
      })),
    );
    const second = await list<CreationRequestRow>(user, '/api/create-video?status=error&page=2');
    expect(second).toMatchObject({ page: 2, total: 12, totalPages: 1 });
    expect(second.data).toEqual([]);
    const first = await list<CreationRequestRow>(user, '/api/create-video?status=error');
    expect(first.data).toHaveLength(12);
  });

  it('shows published sets with their title, file, date and count, narrowed by status, platform and search', async () => {
    const user = await createUser(env(), 'operator');
    await seed(user, [
      { name: 'one.mp4', status: 'published', title: 'Ранковий випуск', videos: ['success', 'error'], youtube: true },
      { name: 'two.mp4', status: 'published', title: 'Вечірній випуск', videos: ['success', 'publication'], youtube: false },
      { name: 'three.mp4', status: 'published', title: 'Нічний випуск', videos: ['success', 'success'], youtube: true },
      { name: 'draft.mp4', status: 'success' },
    ]);
    const all = await list<UploadRow>(user, '/api/upload-video');
    expect(all.data.map((row) => [row.title, row.sourceName, row.status, row.countVideo])).toEqual([
      ['Нічний випуск', 'three.mp4', 'success', 2],
      ['Вечірній випуск', 'two.mp4', 'publication', 2],
      ['Ранковий випуск', 'one.mp4', 'error', 2],
    ]);
    expect(Date.parse(all.data[0]!.publishedAt)).toBeGreaterThan(0);
    const titles = async (query: string) => (await list<UploadRow>(user, `/api/upload-video?${query}`)).data.map((row) => row.title);
    expect(await titles('status=error')).toEqual(['Ранковий випуск']);
    expect(await titles('status=publication')).toEqual(['Вечірній випуск']);
    expect(await titles('status=success')).toEqual(['Нічний випуск']);
    expect(await titles('platform=youtube')).toEqual(['Нічний випуск', 'Ранковий випуск']);
    expect(await titles(`q=${encodeURIComponent('вечір')}`)).toEqual(['Вечірній випуск']);
    expect(await titles('q=one.mp4')).toEqual(['Ранковий випуск']);
  });

  it('finds profiles by comment, proxy or connected name and narrows them by platform', async () => {
    const user = await createUser(env(), 'operator');
    const other = await createUser(env(), 'other');
    const morning = await createAccount(env(), user, {
      comments: 'Ранковий канал',
      proxy: '127.0.0.1:8081',
      isActiveYouTube: true,
      YouTubeAuthClientId: 'a',
      YouTubeAuthClientSecret: 'b',
    });
    const evening = await createAccount(env(), user, { comments: 'Вечірній', proxy: '127.0.0.1:8082' });
    await createAccount(env(), other, { comments: 'Ранковий канал іншого' });
    await env().db.sql(
      `INSERT INTO account_connections (account_id, platform, method, access_token, checked_name) VALUES ($1, 'tiktok', 'pasted', 'x', 'Олена (@olena)')`,
      [evening.id],
    );

    const ids = async (query: string) => (await list<AccountSummary>(user, `/api/accounts?${query}`)).data.map((row) => row.id);
    expect(await ids(`q=${encodeURIComponent('ранков')}`)).toEqual([morning.id]);
    expect(await ids('q=8082')).toEqual([evening.id]);
    expect(await ids('q=olena')).toEqual([evening.id]);
    expect(await ids('platform=youtube')).toEqual([morning.id]);
  });

  it('refuses a status or platform the list does not have', async () => {
    const user = await createUser(env(), 'operator');
    for (const url of [
      '/api/create-video?status=unknown',
      '/api/upload-video?status=published',
      '/api/accounts?platform=vk',
      `/api/create-video?q=${'x'.repeat(101)}`,
    ]) {
      const response = await env().app.inject({ url, headers: user.headers });
      expect(response.statusCode, url).toBe(400);
    }
  });
});
