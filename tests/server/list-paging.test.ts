import { expect, it } from 'vitest';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';

/** `n` creation requests of a user with one video each, oldest first; returns their ids. */
async function insertRequests(env: TestEnv, userId: number, n: number): Promise<number[]> {
  const { rows } = await env.db.sql(
    `WITH made AS (
       INSERT INTO creation_requests (id_upload, user_id, count_video, source_key)
       SELECT gen_random_uuid(), $1, 1, 'source' FROM generate_series(1, $2) RETURNING id)
     SELECT id FROM made ORDER BY id`,
    [userId, n],
  );
  const ids = rows.map((row) => row.id as number);
  await env.db.sql(
    `INSERT INTO videos (request_id, user_id, position, status, date) SELECT id, $1, 0, 'success', now() FROM unnest($2::int[]) AS id ORDER BY id`,
    [userId, ids],
  );
  return ids;
}

const publish = (env: TestEnv, ids: number[]) =>
  env.db.sql('UPDATE creation_requests SET published_at = clock_timestamp() WHERE id = ANY($1::int[])', [ids]);

describeEachDatabase('paged lists (ranked)', (env) => {
  const get = async (user: { headers: Record<string, string> }, url: string) => {
    const response = await env().app.inject({ url, headers: user.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const idsOf = (page: { data: { id: number }[] }) => page.data.map((row) => row.id);

  it('pages requests newest first for their owner, and everyone for an admin, with counts', async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const operator = await createUser(env(), 'operator');
    const other = await createUser(env(), 'other');
    const mine = await insertRequests(env(), operator.id, 45);
    const theirs = await insertRequests(env(), other.id, 3);

    const first = await get(operator, '/api/create-video?page=1');
    expect(first).toMatchObject({ page: 1, totalPages: 3, total: 45 });
    expect(idsOf(first)).toEqual(mine.slice(25).reverse());
    expect(idsOf(await get(operator, '/api/create-video?page=3'))).toEqual(mine.slice(0, 5).reverse());
    expect((await get(operator, '/api/create-video?page=4')).data).toEqual([]);

    const all = await get(admin, '/api/create-video?page=1');
    expect(all).toMatchObject({ total: 48, totalPages: 3 });
    expect(idsOf(all)).toEqual([...theirs].reverse().concat(mine.slice(28).reverse()));
  });

  it('closes the gaps deletions leave, so pages stay full and counts right', async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const operator = await createUser(env(), 'operator');
    const other = await createUser(env(), 'other');
    const mine = await insertRequests(env(), operator.id, 30);
    await insertRequests(env(), other.id, 2);
    for (const id of [mine[3]!, mine[29]!]) {
      expect((await env().app.inject({ method: 'DELETE', url: `/api/create-video/${id}`, headers: operator.headers })).statusCode).toBe(
        204,
      );
    }
    const left = mine.filter((id) => id !== mine[3] && id !== mine[29]);
    const second = await get(operator, '/api/create-video?page=2');
    expect(second).toMatchObject({ total: 28, totalPages: 2 });
    expect(idsOf(second)).toEqual(left.slice(0, 8).reverse());

    const videos = await get(admin, `/api/users/${operator.id}/video?page=2`);
    expect(videos).toMatchObject({ total: 28, totalPages: 2 });
    expect(videos.data).toHaveLength(8);
    expect((await get(admin, '/api/users')).data.find((row: { id: number }) => row.id === operator.id).videosCount).toBe(28);

    // Deleting a user takes their rows out of everyone's list too.
    expect((await env().app.inject({ method: 'DELETE', url: `/api/users/${other.id}`, headers: admin.headers })).statusCode).toBe(204);
    const all = await get(admin, '/api/create-video?page=2');
    expect(all).toMatchObject({ total: 28 });
    expect(idsOf(all)).toEqual(left.slice(0, 8).reverse());
  });

  it("names each video's profile in a user's video list, as the profile pickers name it", async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const operator = await createUser(env(), 'operator');
    const [request] = await insertRequests(env(), operator.id, 1);
    const { rows } = await env().db.sql(
      `INSERT INTO accounts (user_id, proxy, comments) VALUES ($1, 'http://127.0.0.1:9', 'Канал Олени') RETURNING id`,
      [operator.id],
    );
    const accountId = rows[0]!.id as number;
    await env().db.sql('UPDATE videos SET account_id = $1 WHERE request_id = $2', [accountId, request]);
    const videos = await get(admin, `/api/users/${operator.id}/video?page=1`);
    expect(videos.data[0].account).toEqual({ id: accountId, title: `#${accountId} Канал Олени` });
  });

  it('lists published sets by their latest publication, with each set status', async () => {
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const operator = await createUser(env(), 'operator');
    const ids = await insertRequests(env(), operator.id, 25);
    await insertRequests(env(), operator.id, 1); // never published
    for (const id of ids) await publish(env(), [id]);
    await env().db.sql(`UPDATE videos SET status = 'error' WHERE request_id = $1`, [ids[24]]);
    await env().db.sql(`UPDATE videos SET status = 'publication' WHERE request_id = $1`, [ids[23]]);

    const first = await get(operator, '/api/upload-video?page=1');
    expect(first).toMatchObject({ total: 25, totalPages: 2 });
    expect(first.data.slice(0, 3).map((row: { status: string }) => row.status)).toEqual(['error', 'publication', 'success']);
    expect(idsOf(first)).toEqual(ids.slice(5).reverse());

    // Publishing again brings a set to the top, as ordering by the publication time did.
    await publish(env(), [ids[0]!]);
    const again = await get(admin, '/api/upload-video?page=1');
    expect(idsOf(again)).toEqual([ids[0], ...ids.slice(6).reverse()]);
    expect(idsOf(await get(operator, '/api/upload-video?page=2'))).toEqual(ids.slice(1, 6).reverse());
  });

  it("counts a profile's videos as they are published to it, moved and deleted, and forgets the count with the profile", async () => {
    const operator = await createUser(env(), 'operator');
    const { rows: profiles } = await env().db.sql(
      `INSERT INTO accounts (user_id, proxy, comments) VALUES ($1, 'http://127.0.0.1:9', 'a'), ($1, 'http://127.0.0.1:9', 'b') RETURNING id`,
      [operator.id],
    );
    const [first, second] = profiles.map((row) => row.id as number) as [number, number];
    const ids = await insertRequests(env(), operator.id, 25);
    // One statement for many videos, and one statement a video, as the publish route does.
    await env().db.sql('UPDATE videos SET account_id = $1 WHERE request_id = ANY($2::int[])', [first, ids.slice(0, 22)]);
    for (const id of ids.slice(22)) await env().db.sql('UPDATE videos SET account_id = $1 WHERE request_id = $2', [second, id]);
    const counted = async (account: number) => {
      const page = await get(operator, `/api/accounts/${account}/video?page=2`);
      const { rows } = await env().db.sql('SELECT count(*)::int AS n FROM videos WHERE account_id = $1', [account]);
      expect(page.total).toBe(rows[0].n);
      const onPage = await env().db.sql('SELECT id FROM videos WHERE account_id = $1 ORDER BY id DESC OFFSET 20 LIMIT 20', [account]);
      expect(idsOf(page)).toEqual(onPage.rows.map((row) => row.id));
      expect(page.data).toHaveLength(Math.max(0, page.total - 20));
      return page.total;
    };
    expect([await counted(first), await counted(second)]).toEqual([22, 3]);

    await env().db.sql('UPDATE videos SET account_id = $1 WHERE request_id = ANY($2::int[])', [second, ids.slice(0, 2)]);
    // Other updates of a video (statistics, status) leave the counts alone.
    await env().db.sql('UPDATE videos SET views = 7, status = $2 WHERE request_id = ANY($1::int[])', [ids, 'success']);
    const deleted = await env().app.inject({ method: 'DELETE', url: `/api/create-video/${ids[24]}`, headers: operator.headers });
    expect(deleted.statusCode).toBe(204);
    await insertRequests(env(), operator.id, 1);
    await env().db.sql(
      `INSERT INTO videos (request_id, user_id, account_id, position) SELECT $1, $2, $3, g FROM generate_series(1, 3) AS g`,
      [ids[10], operator.id, first],
    );
    expect([await counted(first), await counted(second)]).toEqual([23, 4]);

    const removed = await env().app.inject({ method: 'DELETE', url: `/api/accounts/${first}`, headers: operator.headers });
    expect(removed.statusCode).toBe(204);
    const { rows } = await env().db.sql(`SELECT owner_id, total FROM list_counts WHERE list = 'profile_videos' ORDER BY owner_id`, []);
    expect(rows).toEqual([{ owner_id: second, total: 4 }]);
    expect(await counted(second)).toBe(4);

    // Deleting the user deletes their profiles and videos at once: no count is left behind.
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    expect((await env().app.inject({ method: 'DELETE', url: `/api/users/${operator.id}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await env().db.sql(`SELECT * FROM list_counts WHERE list = 'profile_videos'`, [])).rows).toEqual([]);
  });

  it("pages a profile's videos from either end of its list, each page as OFFSET would cut it", async () => {
    const operator = await createUser(env(), 'operator');
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    const ids = await insertRequests(env(), operator.id, 45);
    // Sizes around the page size and the half-way turn: the first half is walked from the newest
    // video, the second from the oldest, and a short last page is cut from the oldest end too.
    for (const size of [1, 20, 21, 39, 40, 41, 45]) {
      const { rows } = await env().db.sql(
        `INSERT INTO accounts (user_id, proxy, comments) VALUES ($1, 'http://127.0.0.1:9', 'p') RETURNING id`,
        [operator.id],
      );
      const account = rows[0].id as number;
      await env().db.sql('UPDATE videos SET account_id = $1 WHERE request_id = ANY($2::int[])', [account, ids.slice(0, size)]);
      for (let page = 1; page <= Math.ceil(size / 20) + 1; page++) {
        const expected = await env().db.sql('SELECT id FROM videos WHERE account_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 20', [
          account,
          (page - 1) * 20,
        ]);
        for (const user of [operator, admin]) {
          const found = await get(user, `/api/accounts/${account}/video?page=${page}`);
          expect({ size, page, total: found.total, ids: idsOf(found) }).toEqual({
            size,
            page,
            total: size,
            ids: expected.rows.map((row) => row.id),
          });
        }
      }
    }
  });

  it('counts the short lists with their page, and alone past the last page', async () => {
    const operator = await createUser(env(), 'operator');
    await env().db.sql(`INSERT INTO tag_sets (user_id, name, tags) SELECT $1, 'set ' || g, ARRAY['#a'] FROM generate_series(1, 23) AS g`, [
      operator.id,
    ]);
    const second = await get(operator, '/api/tags?page=2');
    expect(second).toMatchObject({ page: 2, total: 23, totalPages: 2 });
    expect(second.data.map((row: { name: string }) => row.name)).toEqual(['set 3', 'set 2', 'set 1']);
    expect(await get(operator, '/api/tags?page=5')).toEqual({ data: [], page: 5, total: 23, totalPages: 2 });

    await env().db.sql(
      `INSERT INTO accounts (user_id, proxy, comments) SELECT $1, 'http://127.0.0.1:9', 'p' || g FROM generate_series(1, 21) AS g`,
      [operator.id],
    );
    const profiles = await get(operator, '/api/accounts?page=2');
    expect(profiles).toMatchObject({ page: 2, total: 21, totalPages: 2 });
    expect(profiles.data.map((row: { comments: string; user: { login: string } }) => [row.comments, row.user.login])).toEqual([
      ['p1', 'operator'],
    ]);
    expect(await get(operator, '/api/accounts?page=3')).toEqual({ data: [], page: 3, total: 21, totalPages: 2 });

    await env().db.sql(
      `INSERT INTO photos (user_id, file_key, content_type, width, height)
       SELECT $1, 'photos/' || g || '.jpg', 'image/jpeg', 1080, 1920 FROM generate_series(1, 22) AS g`,
      [operator.id],
    );
    const images = await get(operator, '/api/photo-bg?page=2');
    expect(images).toMatchObject({ page: 2, total: 22, totalPages: 2 });
    expect(images.data.map((row: { url: string }) => row.url.split('?')[0])).toEqual([
      '/api/media/photos/2.jpg',
      '/api/media/photos/1.jpg',
    ]);
    expect(await get(operator, '/api/photo-bg?page=4')).toEqual({ data: [], page: 4, total: 22, totalPages: 2 });

    // Groups, each with its profiles; a stranger's group is counted for an admin only.
    const stranger = await createUser(env(), 'stranger');
    await env().db.sql(`INSERT INTO account_groups (user_id, name) SELECT $1, 'g' || g FROM generate_series(1, 21) AS g`, [operator.id]);
    await env().db.sql(`INSERT INTO account_groups (user_id, name) VALUES ($1, 'theirs')`, [stranger.id]);
    await env().db.sql(
      `UPDATE accounts SET group_id = (SELECT id FROM account_groups WHERE name = 'g1') WHERE user_id = $1 AND comments IN ('p1', 'p2')`,
      [operator.id],
    );
    const groups = await get(operator, '/api/accounts-group?page=2');
    expect(groups).toMatchObject({ page: 2, total: 21, totalPages: 2 });
    expect(groups.data.map((row: { name: string; accounts: { title: string }[] }) => [row.name, row.accounts.length])).toEqual([['g1', 2]]);
    expect(await get(operator, '/api/accounts-group?page=3')).toEqual({ data: [], page: 3, total: 21, totalPages: 2 });
    const admin = await createUser(env(), 'chief', { role: 'admin' });
    expect((await get(admin, '/api/accounts-group?page=1')).data[0].name).toBe('theirs');
    expect(await get(admin, '/api/accounts-group?page=3')).toEqual({ data: [], page: 3, total: 22, totalPages: 2 });

    // Users, oldest first, with their counts: 3 here and 19 more.
    await env().db.sql(
      `INSERT INTO users (login, password_hash, role) SELECT 'user' || g, 'x', 'user' FROM generate_series(1, 19) AS g`,
      [],
    );
    const users = await get(admin, '/api/users?page=2');
    expect(users).toMatchObject({ page: 2, total: 22, totalPages: 2 });
    expect(users.data.map((row: { login: string }) => row.login)).toEqual(['user18', 'user19']);
    const first = await get(admin, '/api/users?page=1');
    expect(first.data.slice(0, 3).map((row: { login: string; accountsCount: number }) => [row.login, row.accountsCount])).toEqual([
      ['operator', 21],
      ['stranger', 0],
      ['chief', 0],
    ]);
    expect(await get(admin, '/api/users?page=3')).toEqual({ data: [], page: 3, total: 22, totalPages: 2 });
  });
});

describeEachDatabase('ranked lists under concurrent deletions', (env) => {
  it('deletes and republishes many requests of one owner at once, each answered 204, the pages closing up', async () => {
    const operator = await createUser(env(), 'operator');
    const ids = await insertRequests(env(), operator.id, 30);
    await publish(env(), ids.slice(0, 20));
    const doomed = ids.filter((_, index) => index % 3 === 0);
    const kept = ids.filter((id) => !doomed.includes(id));
    const [answers] = await Promise.all([
      Promise.all(doomed.map((id) => env().app.inject({ method: 'DELETE', url: `/api/create-video/${id}`, headers: operator.headers }))),
      ...kept.slice(0, 6).map((id) => publish(env(), [id])),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual(doomed.map(() => 204));
    const published = (await env().app.inject({ url: '/api/upload-video?page=1', headers: operator.headers })).json();
    expect(published.total).toBe(kept.filter((id) => ids.slice(0, 20).includes(id)).length);
    const left = (await env().app.inject({ url: '/api/create-video?page=1', headers: operator.headers })).json();
    expect(left.total).toBe(30 - doomed.length);
    const pages = [1, 2].map((page) => env().app.inject({ url: `/api/create-video?page=${page}`, headers: operator.headers }));
    const shown = (await Promise.all(pages)).flatMap((page) => page.json().data.map((row: { id: number }) => row.id));
    expect(shown).toEqual([...kept].reverse());
  });
});
