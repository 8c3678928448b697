import ExcelJS from 'exceljs';
import { beforeEach, expect, it } from 'vitest';
import type { CalendarRange, PlanExport, PlanPreview } from '../../src/lib/contract';
import { postSeed, postWords } from '../../src/lib/post-texts';
import { t } from '../../server/messages';
import { sendPublishJob } from '../../server/services/publishing/post-lifecycle';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, newSession } from './helpers';
import { ManualClock } from './manual-clock';
import { renderedRequest } from './publishing-fixtures';

/** Issue 43.3–43.4: a plan file previewed row by row, saved in one transaction on confirm, and exported back unchanged. */

// Tuesday 1 December 2026, 10:17 in Kyiv (UTC+2).
const start = Date.parse('2026-12-01T08:17:00Z');
const clock = new ManualClock(start);
const slots = { from: '09:00', to: '22:00', minGapMinutes: 30, days: [1, 2, 3, 4, 5, 6, 7] };
const header = 'ID відео;ID запиту;Профіль;Платформа;Дата (Київ);Назва;Опис;Теги';

describeEachDatabase(
  'Plans: import and export',
  (env) => {
    beforeEach(() => clock.set(start));

    async function profile(user: TestUser, name: string) {
      const account = await createAccount(env(), user, { comments: name });
      await env().db.sql(`UPDATE accounts SET is_active_youtube = true, is_active_tiktok = true WHERE id = $1`, [account.id]);
      return account;
    }

    function multipart(bytes: Buffer, filename: string) {
      const boundary = 'plan-boundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
    }

    async function preview(user: TestUser, bytes: Buffer | string, filename = 'plan.csv') {
      const body = multipart(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), filename);
      const response = await env().app.inject({
        method: 'POST',
        url: '/api/plans/preview',
        headers: { ...user.headers, ...body.headers },
        payload: body.payload,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PlanPreview>();
    }

    const commit = (user: TestUser, planId: string, body?: { allowDuplicates: boolean }) =>
      env().app.inject({
        method: 'POST',
        url: `/api/plans/${planId}/commit`,
        headers: user.headers,
        ...(body === undefined ? {} : { payload: body }),
      });

    const csv = (rows: string[]) => `\uFEFF${[header, ...rows].join('\r\n')}\r\n`;
    const count = async (sql: string) => (await env().db.sql(sql, [])).rows[0].count as number;

    it('previews every row with its line and Ukrainian reason, saves nothing, then saves the ok rows with their own words and jobs', async () => {
      const owner = await createUser(env(), 'owner');
      const stranger = await createUser(env(), 'stranger');
      const mine = await profile(owner, 'Ранок');
      const theirs = await profile(stranger, 'Чужий');
      const request = await renderedRequest(env(), owner.id, 4, 1000);
      const [first, second, third, fourth] = request.videos;
      const file = csv([
        `${first!.id};;#${mine.id};youtube;02.12.2026 10:00;Перша;Опис першої;біг, ранок`,
        `${second!.id};;Ранок;TikTok;02.12.2026 11:00;;;`,
        `${third!.id};;#${theirs.id};youtube;02.12.2026 12:00;;;`,
        `${fourth!.id};;#${mine.id};youtube;30.11.2026 12:00;;;`,
        `${first!.id};;#${mine.id};youtube;03.12.2026 12:00;;;`,
        `${third!.id};;#${mine.id};youtube;02.12.2026 10:10;;;`,
        `;${request.idUpload};#${mine.id};tiktok;;"Назва; з крапкою з комою";;`,
      ]);
      const answer = await preview(owner, file);

      expect(answer.summary).toEqual({ ok: 3, refused: 4, unchanged: 0 });
      expect(answer.rows.map((row) => [row.line, row.ok])).toEqual([
        [2, true],
        [3, true],
        [4, false],
        [5, false],
        [6, false],
        [7, false],
        [8, true],
      ]);
      const reasons = new Map(answer.rows.map((row) => [row.line, row.reason]));
      expect(reasons.get(4)).toBe(`Рядок 4: профіль «#${theirs.id}» не знайдено серед ваших`);
      expect(reasons.get(5)).toBe('Рядок 5: дата 30.11.2026 12:00 уже минула');
      expect(reasons.get(6)).toBe('Рядок 6: те саме відео вже є в рядку 2 для YouTube');
      expect(reasons.get(7)).toBe(`Рядок 7: можливий дубль — профіль #${mine.id} Ранок: проміжок 30 хв між публікаціями профілю`);
      expect(answer.rows.filter((row) => row.duplicate).map((row) => row.line)).toEqual([7]);
      // The request's first video not yet planned on TikTok, at the profile's first free slot from now on.
      const placed = answer.rows[6]!;
      expect(placed.videoId).toBe(first!.id);
      expect(Date.parse(placed.date!)).toBeGreaterThan(start);
      expect(await count('SELECT count(*)::int AS count FROM video_posts')).toBe(0);

      const saved = await commit(owner, answer.planId);
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json()).toEqual({ saved: 3 });
      const { rows: posts } = await env().db.sql(
        `SELECT video_id, platform, account_id, scheduled_at, title, description, tags, status, options FROM video_posts ORDER BY id`,
        [],
      );
      expect(posts.map((post) => [post.video_id, post.platform, post.title, post.description, post.tags])).toEqual([
        [first!.id, 'youtube', 'Перша', 'Опис першої', ['біг', 'ранок']],
        [second!.id, 'tiktok', null, null, null],
        [first!.id, 'tiktok', 'Назва; з крапкою з комою', null, null],
      ]);
      expect(new Date(posts[0].scheduled_at).toISOString()).toBe('2026-12-02T08:00:00.000Z');
      expect(posts[1].options).toMatchObject({ privacyLevel: 'SELF_ONLY' });
      expect(await count(`SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'publish-video'`)).toBe(3);
      // The videos planned read as planned; the one left out stays as it was.
      const { rows: videoStatuses } = await env().db.sql(`SELECT id, status FROM videos ORDER BY position`, []);
      expect(videoStatuses.map((video) => video.status)).toEqual(['publication', 'publication', 'noactive', 'noactive']);
      // The plan's jobs, sent in one statement, are what a single send of the same post gives.
      const jobColumns = `data, priority, state, retry_limit, retry_delay, retry_backoff, start_after, singleton_key, singleton_on,
                          expire_in, keep_until, dead_letter, policy`;
      const { rows: planJobs } = await env().db.sql(
        `SELECT ${jobColumns} FROM pgboss.job WHERE name = 'publish-video' AND (data->>'postId')::int = (SELECT min(id) FROM video_posts)`,
        [],
      );
      const { rows: firstPost } = await env().db.sql(`SELECT id, job_token, scheduled_at FROM video_posts ORDER BY id LIMIT 1`, []);
      await env().db.sql(`DELETE FROM pgboss.job WHERE name = 'publish-video' AND (data->>'postId')::int = $1`, [firstPost[0].id]);
      await env().db.transaction((run) =>
        sendPublishJob(env().app.queue!, { id: firstPost[0].id, token: firstPost[0].job_token }, run, {
          at: new Date(firstPost[0].scheduled_at),
          now: new Date(start),
        }),
      );
      const { rows: sentJobs } = await env().db.sql(
        `SELECT ${jobColumns} FROM pgboss.job WHERE name = 'publish-video' AND (data->>'postId')::int = $1`,
        [firstPost[0].id],
      );
      expect(planJobs).toHaveLength(1);
      expect(planJobs[0].data).toEqual({ postId: firstPost[0].id, token: firstPost[0].job_token });
      expect(planJobs[0]).toEqual(sentJobs[0]);
      const { rows: requests } = await env().db.sql(`SELECT status, in_youtube, in_tiktok FROM creation_requests`, []);
      expect(requests[0]).toMatchObject({ status: 'published', in_youtube: true, in_tiktok: true });

      // The saved plan is in the calendar, and a second confirm of the same preview saves nothing more.
      const calendar = await env().app.inject({
        method: 'GET',
        url: `/api/calendar?from=${encodeURIComponent('2026-11-30T22:00:00.000Z')}&to=${encodeURIComponent('2026-12-07T22:00:00.000Z')}`,
        headers: owner.headers,
      });
      expect(calendar.json<CalendarRange>().posts).toHaveLength(3);
      const again = await commit(owner, answer.planId);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe(t.plans.previewNotFound);
    });

    it('exports the period in the import columns, as CSV and JSON, and the file imports back as a no-op', async () => {
      const owner = await createUser(env(), 'owner');
      const mine = await profile(owner, 'Вечір\nдругий рядок коментаря');
      const request = await renderedRequest(env(), owner.id, 3, 1000);
      const file = csv(
        request.videos.map(
          (video, index) => `${video.id};;#${mine.id};youtube;0${2 + index}.12.2026 18:00;=1+1 назва;"опис; ""в лапках""";теги`,
        ),
      );
      const first = await preview(owner, file);
      expect(first.summary).toEqual({ ok: 3, refused: 0, unchanged: 0 });
      expect((await commit(owner, first.planId)).statusCode).toBe(201);

      const exported = await env().app.inject({
        method: 'GET',
        url: '/api/plans/export.csv?from=2026-12-01&to=2026-12-31',
        headers: owner.headers,
      });
      expect(exported.statusCode, exported.body).toBe(200);
      expect(exported.headers['content-type']).toContain('text/csv');
      const text = exported.body;
      expect(text.startsWith(`\uFEFF${header}\r\n`)).toBe(true);
      // A title that a spreadsheet would run as a formula goes out guarded, and comes back as it was.
      expect(text).toContain(
        `${request.videos[0]!.id};${request.idUpload};#${mine.id} Вечір;youtube;02.12.2026 18:00;'=1+1 назва;"опис; ""в лапках""";теги`,
      );

      const json = await env().app.inject({
        method: 'GET',
        url: '/api/plans/export?from=2026-12-01&to=2026-12-31',
        headers: owner.headers,
      });
      expect(json.json<PlanExport>().rows.map((row) => [row.videoId, row.platform, row.date, row.title])).toEqual(
        request.videos.map((video, index) => [video.id, 'youtube', `0${2 + index}.12.2026 18:00`, '=1+1 назва']),
      );

      const back = await preview(owner, Buffer.from(text));
      expect(back.summary).toEqual({ ok: 3, refused: 0, unchanged: 3 });
      expect(back.rows.every((row) => row.state === 'unchanged')).toBe(true);
      const saved = await commit(owner, back.planId);
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json()).toEqual({ saved: 0 });
      expect(await count('SELECT count(*)::int AS count FROM video_posts')).toBe(3);

      // A profile of another operator's period is nothing of theirs: the stranger's export is empty.
      const stranger = await createUser(env(), 'stranger');
      const theirs = await env().app.inject({
        method: 'GET',
        url: '/api/plans/export?from=2026-12-01&to=2026-12-31',
        headers: stranger.headers,
      });
      expect(theirs.json<PlanExport>().rows).toEqual([]);
    });

    it('refuses a preview an hour old and another user’s, in Ukrainian', async () => {
      const owner = await createUser(env(), 'owner');
      const stranger = await createUser(env(), 'stranger');
      const mine = await profile(owner, 'Ранок');
      const request = await renderedRequest(env(), owner.id, 1, 1000);
      const answer = await preview(owner, csv([`${request.videos[0]!.id};;#${mine.id};youtube;05.12.2026 10:00;;;`]));

      const foreign = await commit(stranger, answer.planId);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).toBe(t.plans.previewNotFound);

      clock.set(start + 61 * 60_000);
      // The access token of an hour ago has lapsed too: the operator signs in again.
      const late = await commit({ ...owner, ...(await newSession(env(), owner.id)) }, answer.planId);
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toBe(t.plans.previewExpired);
      expect(await count('SELECT count(*)::int AS count FROM video_posts')).toBe(0);
    });

    it('keeps a user’s newest 5 previews: the sixth deletes the oldest, another user’s stay', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const mine = await profile(owner, 'Ранок');
      const theirs = await profile(other, 'Ранок');
      const [request, theirRequest] = await Promise.all([
        renderedRequest(env(), owner.id, 1, 1000),
        renderedRequest(env(), other.id, 1, 1000),
      ]);
      const theirPreview = await preview(other, csv([`${theirRequest.videos[0]!.id};;#${theirs.id};youtube;05.12.2026 10:00;;;`]));
      const planIds: string[] = [];
      for (let index = 0; index < 6; index++) {
        clock.set(start + (index + 1) * 60_000);
        planIds.push((await preview(owner, csv([`${request.videos[0]!.id};;#${mine.id};youtube;05.12.2026 10:00;;;`]))).planId);
      }
      const kept = await env().db.sql(`SELECT id FROM plan_previews WHERE user_id = $1`, [owner.id]);
      expect(kept.rows.map((row) => row.id).sort()).toEqual(planIds.slice(1).sort());

      const oldest = await commit(owner, planIds[0]!);
      expect(oldest.statusCode).toBe(404);
      expect(oldest.json().message).toBe(t.plans.previewNotFound);
      expect((await commit(owner, planIds[1]!)).statusCode).toBe(201);
      expect((await commit(other, theirPreview.planId)).statusCode).toBe(201);
    });

    it('checks every row again on confirm: a post planned meanwhile refuses the whole plan, nothing half saved', async () => {
      const owner = await createUser(env(), 'owner');
      const mine = await profile(owner, 'Ранок');
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const rows = request.videos.map((video) => `${video.id};;#${mine.id};youtube;;;;`);
      const firstPreview = await preview(owner, csv(rows));
      const secondPreview = await preview(owner, csv([rows[1]!]));
      expect((await commit(owner, secondPreview.planId)).statusCode).toBe(201);

      const refused = await commit(owner, firstPreview.planId);
      expect(refused.statusCode).toBe(409);
      // The first row's slot is the one the second preview took: within its gap of the saved post, it is a possible duplicate now.
      expect(refused.json().message).toBe(
        `План змінився після перегляду, нічого не збережено. Рядок 2: можливий дубль — профіль #${mine.id} Ранок: проміжок 30 хв між публікаціями профілю`,
      );
      expect(await count('SELECT count(*)::int AS count FROM video_posts')).toBe(1);
    });

    it('flags a row within its profile’s gap as a possible duplicate, saved only when the operator allows it; a video twice on a platform stays refused', async () => {
      const owner = await createUser(env(), 'owner');
      const mine = await profile(owner, 'Ранок');
      const request = await renderedRequest(env(), owner.id, 4, 1000);
      const [first, second, third, fourth] = request.videos;
      const file = csv([
        `${first!.id};;#${mine.id};youtube;02.12.2026 10:00;;;`,
        `${second!.id};;#${mine.id};youtube;02.12.2026 10:20;;;`,
        `${second!.id};;#${mine.id};tiktok;02.12.2026 10:20;;;`,
        `${first!.id};;#${mine.id};youtube;02.12.2026 15:00;;;`,
        `${third!.id};;#${mine.id};youtube;02.12.2026 11:00;;;`,
        `${fourth!.id};;#${mine.id};youtube;;;;`,
      ]);
      const answer = await preview(owner, file);
      expect(answer.summary).toEqual({ ok: 3, refused: 3, unchanged: 0 });
      expect(answer.rows.map((row) => [row.line, row.ok, row.duplicate ?? false])).toEqual([
        [2, true, false],
        [3, false, true],
        [4, false, true],
        [5, false, false],
        [6, true, false],
        [7, true, false],
      ]);
      const duplicateReason = `можливий дубль — профіль #${mine.id} Ранок: проміжок 30 хв між публікаціями профілю`;
      expect(answer.rows[1]!.reason).toBe(`Рядок 3: ${duplicateReason}`);
      expect(answer.rows[2]!.reason).toBe(`Рядок 4: ${duplicateReason}`);
      expect(answer.rows[3]!.reason).toBe('Рядок 5: те саме відео вже є в рядку 2 для YouTube');
      // Line 6 is 40 minutes from the possible duplicate at 10:20, and the undated line 7 is placed clear of all three.
      const placed = Date.parse(answer.rows[5]!.date!);
      for (const at of ['2026-12-02T08:00:00Z', '2026-12-02T08:20:00Z', '2026-12-02T09:00:00Z']) {
        expect(Math.abs(placed - Date.parse(at))).toBeGreaterThanOrEqual(30 * 60_000);
      }

      // Asked for, the duplicates are saved with the rest; the video named twice on YouTube is not.
      const saved = await commit(owner, answer.planId, { allowDuplicates: true });
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json()).toEqual({ saved: 5 });
      const { rows: posts } = await env().db.sql(`SELECT video_id, platform FROM video_posts ORDER BY video_id, platform`, []);
      expect(posts.map((post) => [post.video_id, post.platform])).toEqual([
        [first!.id, 'youtube'],
        [second!.id, 'tiktok'],
        [second!.id, 'youtube'],
        [third!.id, 'youtube'],
        [fourth!.id, 'youtube'],
      ]);
      expect(await count(`SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'publish-video'`)).toBe(5);

      // Not asked for, the same file saves its ok rows only, as before.
      const other = await createUser(env(), 'other');
      const theirs = await profile(other, 'Ранок');
      const theirRequest = await renderedRequest(env(), other.id, 4, 1000);
      const [one, two, , four] = theirRequest.videos;
      const plain = await preview(
        other,
        csv([
          `${one!.id};;#${theirs.id};youtube;02.12.2026 10:00;;;`,
          `${two!.id};;#${theirs.id};youtube;02.12.2026 10:20;;;`,
          `${four!.id};;#${theirs.id};youtube;;;;`,
        ]),
      );
      expect(plain.rows.map((row) => row.duplicate ?? false)).toEqual([false, true, false]);
      const okOnly = await commit(other, plain.planId);
      expect(okOnly.statusCode, okOnly.body).toBe(201);
      expect(okOnly.json()).toEqual({ saved: 2 });
      expect(await count(`SELECT count(*)::int AS count FROM video_posts WHERE video_id = ${two!.id}`)).toBe(0);
    });

    it('fills a row’s {profile}, {n}, {date} and spintax per post as a publish does, and checks the limits on the filled words', async () => {
      const owner = await createUser(env(), 'owner');
      const mine = await profile(owner, 'Ранок');
      const request = await renderedRequest(env(), owner.id, 3, 1000);
      const [first, , third] = request.videos;
      // The set's own YouTube description, which a row's empty description takes.
      await env().db.sql(`UPDATE creation_requests SET platform_texts = $2::jsonb WHERE id = $1`, [
        request.id,
        JSON.stringify({ youtube: { description: 'Опис {profile} на {date}' } }),
      ]);
      const answer = await preview(
        owner,
        csv([
          `${third!.id};;#${mine.id};youtube;03.12.2026 10:00;{profile} — {n};;{ранок|вечір} біг`,
          // 105 characters as typed, 101 once {profile} is 'Ранок': YouTube's 100 are counted on the filled words.
          `${first!.id};;#${mine.id};youtube;03.12.2026 12:00;{profile}${'я'.repeat(96)};;`,
        ]),
      );
      expect(answer.rows.map((row) => [row.line, row.state, row.reason])).toEqual([
        [2, 'new', undefined],
        [3, 'refused', `Рядок 3: ${t.postingRules.titleTooLong(101, 100)}`],
      ]);

      expect((await commit(owner, answer.planId)).statusCode).toBe(201);
      const { rows: posts } = await env().db.sql(`SELECT title, description, tags FROM video_posts WHERE video_id = $1`, [third!.id]);
      expect(posts[0]).toMatchObject({ title: 'Ранок — 3', description: 'Опис Ранок на 03.12.2026' });
      // The spintax picks by the post's own seed, as the publish's does: a retry or a second check picks the same tag.
      const published = postWords(
        { title: '{profile} — {n}', description: 'Опис {profile} на {date}', tags: ['{ранок|вечір}', 'біг'] },
        { profile: 'Ранок', n: 3, date: '03.12.2026' },
        postSeed(third!.id, 'youtube', mine.id),
      );
      expect(posts[0].tags).toEqual(published.tags);
      expect(['ранок', 'вечір']).toContain(posts[0].tags[0]);

      // Moved in the calendar, the post keeps the file's words; what it took from the set names its new date.
      const wordsAfter = async (body: object) => {
        const moved = await env().app.inject({
          method: 'PATCH',
          url: `/api/upload-video/${request.idUpload}/video/${third!.id}`,
          headers: owner.headers,
          payload: body,
        });
        expect(moved.statusCode, moved.body).toBe(200);
        return (await env().db.sql(`SELECT title, description, tags FROM video_posts WHERE video_id = $1`, [third!.id])).rows[0];
      };
      expect(await wordsAfter({ date: '2026-12-04T11:00', platform: 'youtube' })).toEqual({
        title: 'Ранок — 3',
        description: 'Опис Ранок на 04.12.2026',
        tags: published.tags,
      });
      expect(await wordsAfter({ date: '2026-12-05T11:00' })).toEqual({
        title: 'Ранок — 3',
        description: 'Опис Ранок на 05.12.2026',
        tags: published.tags,
      });
    });

    it('reads a comma CSV with the keys as headers and an .xlsx alike; refuses a file without the columns a row needs', async () => {
      const owner = await createUser(env(), 'owner');
      const mine = await profile(owner, 'Ранок');
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const [first, second] = request.videos;
      const comma = await preview(
        owner,
        [
          'videoId,profile,platform,date,title,tags',
          `${first!.id},Ранок,youtube,04.12.2026 09:30,"Назва, з комою",один два`,
          `${second!.id},ранок,instagram,04.12.2026 12:00,,`,
        ].join('\n'),
      );
      expect(comma.rows.map((row) => [row.line, row.state, row.reason])).toEqual([
        [2, 'new', undefined],
        [3, 'refused', `Рядок 3: профіль #${mine.id} Ранок не публікує в Instagram`],
      ]);

      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('План');
      sheet.addRow(['ID відео', 'Профіль', 'Платформа', 'Дата (Київ)', 'Назва']);
      sheet.addRow([]);
      sheet.addRow([first!.id, `#${mine.id}`, 'YouTube', new Date(Date.UTC(2026, 11, 4, 9, 30)), 'З таблиці']);
      sheet.addRow([second!.id, `#${mine.id}`, 'tiktok', '31.02.2026 10:00', '']);
      const xlsx = await preview(owner, Buffer.from(await book.xlsx.writeBuffer()), 'plan.xlsx');
      expect(xlsx.rows.map((row) => [row.line, row.state, row.reason ?? row.date])).toEqual([
        [3, 'new', '2026-12-04T07:30:00.000Z'],
        [4, 'refused', 'Рядок 4: дата «31.02.2026 10:00»: потрібно ДД.ММ.РРРР ГГ:ХХ за Києвом'],
      ]);

      // A workbook whose sheet claims to unpack to 100 MB is refused before ExcelJS inflates it.
      const workbook = Buffer.from(await book.xlsx.writeBuffer());
      const directory = workbook.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      workbook.writeUInt32LE(100 * 1024 * 1024, directory + 24);
      const bomb = multipart(workbook, 'plan.xlsx');
      const refusedBomb = await env().app.inject({
        method: 'POST',
        url: '/api/plans/preview',
        headers: { ...owner.headers, ...bomb.headers },
        payload: bomb.payload,
      });
      expect(refusedBomb.statusCode).toBe(413);
      expect(refusedBomb.json().message).toBe('Книга Excel розпакована більша за 64 МБ: збережіть план меншими файлами або як CSV');

      const body = multipart(Buffer.from('Назва;Опис\r\nа;б\r\n'), 'plan.csv');
      const headerless = await env().app.inject({
        method: 'POST',
        url: '/api/plans/preview',
        headers: { ...owner.headers, ...body.headers },
        payload: body.payload,
      });
      expect(headerless.statusCode).toBe(400);
      expect(headerless.json().message).toBe('У першому рядку немає стовпців: ID відео, Профіль, Платформа');
    });

    it('lets an admin plan an operator’s video on that operator’s profiles only, and checks each platform’s own rules', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const ownersProfile = await profile(owner, 'Ранок');
      const othersProfile = await profile(other, 'Вечір');
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const [first, second] = request.videos;
      const answer = await preview(
        admin,
        csv([
          `${first!.id};;#${ownersProfile.id};youtube;05.12.2026 10:00;${'я'.repeat(101)};;`,
          `${first!.id};;#${othersProfile.id};tiktok;05.12.2026 10:00;;;`,
          `${second!.id};${request.idUpload};Ранок;tiktok;05.12.2026 12:00;;;`,
        ]),
      );
      expect(answer.rows.map((row) => [row.line, row.state, row.reason])).toEqual([
        [2, 'refused', `Рядок 2: ${t.postingRules.titleTooLong(101, 100)}`],
        [3, 'refused', `Рядок 3: профіль «#${othersProfile.id}» не знайдено серед ваших`],
        [4, 'new', undefined],
      ]);
      // The operator sees nothing of another's videos: the same file names none of theirs.
      const foreign = await preview(other, csv([`${second!.id};;#${othersProfile.id};tiktok;05.12.2026 12:00;;;`]));
      expect(foreign.rows[0]!.reason).toBe(`Рядок 2: відео #${second!.id} не знайдено серед ваших`);
    });

    it('gives a template with the Ukrainian headers and an example row of the operator’s own video and profile', async () => {
      const owner = await createUser(env(), 'owner');
      const mine = await profile(owner, 'Ранок');
      const request = await renderedRequest(env(), owner.id, 1, 1000);
      const template = await env().app.inject({ method: 'GET', url: '/api/plans/template.csv', headers: owner.headers });
      expect(template.statusCode).toBe(200);
      expect(template.body).toBe(
        `\uFEFF${header}\r\n${request.videos[0]!.id};${request.idUpload};#${mine.id} Ранок;youtube;02.12.2026 10:00;Ранкова пробіжка;Опис цієї публікації;біг ранок\r\n`,
      );
      // The template's own row previews as a post to save.
      expect((await preview(owner, template.body)).summary).toEqual({ ok: 1, refused: 0, unchanged: 0 });
    });
  },
  { queue: 'send', clock, postingSlots: slots },
);
