import { beforeEach, expect, it } from 'vitest';
import type { PublishPayload, SpreadProposal, UploadDetail } from '../../src/lib/contract';
import { t } from '../../server/messages';
import { SandboxState } from '../../server/sandbox/index';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { connectedProfile, emptyAccount, sandboxProfileFields, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, storedPosts, withSandboxServer } from './helpers';
import { kyivDay, publishPayload, renderedRequest, type RenderedRequest, settledSet } from './publishing-fixtures';

const sandbox = new SandboxState();

/** Today's Kyiv date as `{date}` writes it. */
const kyivToday = () => kyivWallTime(Date.now()).slice(0, 10).split('-').reverse().join('.');

describeEachDatabase(
  'A text per platform, its variables and spintax filled per post (issue 43.2)',
  (env) => {
    const network = withSandboxServer(env);
    beforeEach(() => {
      sandbox.faults.splice(0);
    });

    const publish = (user: TestUser, request: RenderedRequest, payload: PublishPayload) =>
      env().app.inject({ method: 'POST', url: `/api/upload-video/${request.idUpload}`, headers: user.headers, payload });

    const settled = (user: TestUser, idUpload: string) => settledSet(env(), user.headers, idUpload);

    const allPlatforms = { inYouTube: true, inTikTok: true, inInstagram: true };
    const choices = {
      youtube: { selfDeclaredMadeForKids: false },
      // Offered to public and private sandbox creators alike (sandbox/tiktok/creator.ts).
      tiktok: { privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' as const },
    };

    it('sends each platform its own words, each variant its own number and profile, and a spintax choice the post keeps', async () => {
      const owner = await createUser(env(), 'owner');
      const first = await connectedProfile(env(), network(), owner, 'alpha');
      const second = await connectedProfile(env(), network(), owner, 'beta');
      const request = await renderedRequest(env(), owner.id, 2);
      const uploadsBefore = sandbox.videos.length;

      const response = await publish(
        owner,
        request,
        publishPayload(request, [first.id, second.id], {
          ...allPlatforms,
          options: choices,
          title: 'Ранок {n}',
          texts: {
            youtube: { title: '{Привіт|Вітаю|Добрий ранок} від {profile}, відео {n}', tags: ['shorts', 'відео{n}'] },
            tiktok: { description: 'ТікТок {n} за {date}' },
            instagram: { title: 'Reels {n}', description: '' },
          },
        }),
      );
      expect(response.statusCode, response.body).toBe(200);
      const detail = await settled(owner, request.idUpload);
      expect(detail.status).toBe('success');

      const uploaded = sandbox.videos.slice(uploadsBefore);
      const sentTo = (platform: string, number: number) =>
        uploaded.find(
          (item) =>
            item.platform === platform &&
            item.tags
              .concat(item.description)
              .join(' ')
              .includes(`video-${request.videos[number - 1]!.id}-`),
        )!;
      const today = kyivToday();
      for (const [number, profile] of [
        [1, `alpha-${env().kind}`],
        [2, `beta-${env().kind}`],
      ] as const) {
        const youtube = sentTo('youtube', number);
        expect(youtube.title).toMatch(new RegExp(`^(Привіт|Вітаю|Добрий ранок) від ${profile}, відео ${number}$`));
        expect(youtube.description).toBe('Опис для платформ');
        expect(youtube.tags).toEqual(expect.arrayContaining(['shorts', `відео${number}`]));
        // TikTok's own description, beside the set's title with the variant's number.
        expect(sentTo('tiktok', number).description).toMatch(
          new RegExp(`^Ранок ${number}\\n\\nТікТок ${number} за ${today.replace(/\./g, '\\.')}\\n\\n#біг #ранок\\n\\nvideo-`),
        );
        // Instagram's own title and an empty description: the caption is the title and the set's hashtags.
        expect(sentTo('instagram', number).description).toMatch(new RegExp(`^Reels ${number}\\n\\n#біг #ранок\\n\\nvideo-`));
      }

      // Each post keeps its final words; the set's page shows them.
      const posts = await storedPosts(env(), { requestId: request.id }, 'p.video_id, p.platform, p.title, p.description, p.tags');
      const youtubePosts = posts.filter((post) => post.platform === 'youtube');
      expect(youtubePosts.map((post) => post.title)).toEqual([sentTo('youtube', 1).title, sentTo('youtube', 2).title]);
      const shown = detail.video.flatMap((video) =>
        video.posts.filter((post) => post.platform === 'youtube').map((post) => post.words?.title),
      );
      expect(shown).toEqual(youtubePosts.map((post) => post.title));
    });

    it('refuses in Ukrainian a caption over Instagram’s 30 hashtags, counting the title’s, the description’s and the tags’', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'gamma');
      const request = await renderedRequest(env(), owner.id, 1);
      const hashtags = Array.from({ length: 29 }, (_, index) => `#тег${index}`).join(' ');

      const response = await publish(
        owner,
        request,
        publishPayload(request, [profile.id], {
          inYouTube: true,
          inInstagram: true,
          options: choices,
          texts: { instagram: { description: `${hashtags} {#ще|#і_ще}` } },
        }),
      );
      // 29 in the description, one from the spintax, and the set's two tags: 32.
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(t.postingRules.tooManyHashtags(32, 30));
      expect(await storedPosts(env(), { requestId: request.id }, 'p.id')).toEqual([]);

      // The same words on YouTube alone, which counts no hashtags, go.
      const youtubeOnly = await publish(
        owner,
        request,
        publishPayload(request, [profile.id], { options: choices, texts: { instagram: { description: hashtags } } }),
      );
      expect(youtubeOnly.statusCode, youtubeOnly.body).toBe(200);
    });

    it('a publish without texts keeps no words on its posts: every platform says the set’s, as SPEC has it', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'delta');
      const request = await renderedRequest(env(), owner.id, 1);
      const response = await publish(owner, request, publishPayload(request, [profile.id], { ...allPlatforms, options: choices }));
      expect(response.statusCode, response.body).toBe(200);
      const posts = await storedPosts(env(), { requestId: request.id }, 'p.title, p.description, p.tags');
      expect(posts).toEqual(Array.from({ length: 3 }, () => ({ title: null, description: null, tags: null })));
      await settled(owner, request.idUpload);
    });

    it('a post moved to another profile and day says its new profile and date; a move of the date alone keeps the rest', async () => {
      const owner = await createUser(env(), 'owner');
      const first = await connectedProfile(env(), network(), owner, 'zeta');
      const second = await connectedProfile(env(), network(), owner, 'eta');
      const request = await renderedRequest(env(), owner.id, 1);
      const [planned, moved] = [kyivDay(3, '10:00'), kyivDay(5, '11:00')];
      const dateOf = (wall: string) => wall.slice(0, 10).split('-').reverse().join('.');
      const response = await publish(
        owner,
        request,
        publishPayload(request, [first.id], {
          options: choices,
          date: planned.wall,
          texts: { youtube: { title: '{profile}, {date}, відео {n}' } },
        }),
      );
      expect(response.statusCode, response.body).toBe(200);
      const titles = async () => (await storedPosts(env(), { requestId: request.id }, 'p.title')).map((post) => post.title);
      expect(await titles()).toEqual([`zeta-${env().kind}, ${dateOf(planned.wall)}, відео 1`]);

      const url = `/api/upload-video/${request.idUpload}/video/${request.videos[0]!.id}`;
      const answer = await env().app.inject({
        method: 'PATCH',
        url,
        headers: owner.headers,
        payload: { date: moved.wall, accountId: second.id },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await titles()).toEqual([`eta-${env().kind}, ${dateOf(moved.wall)}, відео 1`]);
      expect(answer.json<UploadDetail>().video[0]!.posts[0]!.words?.title).toBe(`eta-${env().kind}, ${dateOf(moved.wall)}, відео 1`);
    });

    it('a failed post retried sends the words it was planned with', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'epsilon');
      const request = await renderedRequest(env(), owner.id, 1);
      const uploadsBefore = sandbox.videos.length;
      sandbox.faults.push({ platform: 'youtube', step: 'init', kind: 'unauthorized', times: 2 });

      const response = await publish(
        owner,
        request,
        publishPayload(request, [profile.id], {
          options: choices,
          title: '{Ранок|Вечір|День|Ніч} з {profile} — {n}',
          description: '{Біжимо|Йдемо} {далі|разом}',
        }),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect((await settled(owner, request.idUpload)).status).toBe('error');
      const [planned] = await storedPosts(env(), { requestId: request.id }, 'p.title, p.description');
      expect(planned.title).toMatch(new RegExp(`^(Ранок|Вечір|День|Ніч) з epsilon-${env().kind} — 1$`));

      // Saving the profile clears its refused grant, so the retry is taken.
      const saved = await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts/${profile.id}`,
        headers: owner.headers,
        payload: { ...emptyAccount, ...sandboxProfileFields(env(), 'epsilon', network().proxy.url) },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const retried = await env().app.inject({
        method: 'POST',
        url: '/api/upload-video/upload',
        headers: owner.headers,
        payload: { videoId: request.videos[0]!.id, youTubeId: request.idUpload },
      });
      expect(retried.statusCode, retried.body).toBe(200);
      expect((await settled(owner, request.idUpload)).status).toBe('success');

      const [sent] = sandbox.videos.slice(uploadsBefore).filter((item) => item.platform === 'youtube');
      expect({ title: sent!.title, description: sent!.description }).toEqual(planned);
      expect(await storedPosts(env(), { requestId: request.id }, 'p.title, p.description')).toEqual([planned]);
    });

    it('shows each proposed post the words it will go out with, filled as the publish fills them', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await connectedProfile(env(), network(), owner, 'zeta');
      const request = await renderedRequest(env(), owner.id, 2);
      const tomorrow = kyivDay(1, '12:00').wall.slice(0, 10);
      const spread = (words: object) =>
        env().app.inject({
          method: 'POST',
          url: `/api/upload-video/${request.idUpload}/spread`,
          headers: owner.headers,
          payload: {
            from: tomorrow,
            to: tomorrow,
            accounts: [{ id: profile.id }],
            video: request.videos.map((video) => ({ id: video.id, account: null })),
            inYouTube: true,
            inTikTok: true,
            inInstagram: false,
            ...words,
          },
        });

      const bare = await spread({});
      expect(bare.statusCode, bare.body).toBe(200);
      expect(bare.json<SpreadProposal>().data.every((item) => item.posts === undefined)).toBe(true);

      const response = await spread({
        title: 'Ранок',
        description: 'Опис',
        tags: ['ранок'],
        texts: { youtube: { title: '{Привіт|Вітаю} {n} від {profile}, {date}' } },
      });
      expect(response.statusCode, response.body).toBe(200);
      const proposal = response.json<SpreadProposal>();
      expect(proposal.data).toHaveLength(2);
      const day = tomorrow.split('-').reverse().join('.');
      for (const item of proposal.data) {
        const number = request.videos.findIndex((video) => video.id === item.videoId) + 1;
        // TikTok says the set's words: only YouTube's differ, and only they are named.
        expect(item.posts).toEqual([
          {
            platform: 'youtube',
            words: {
              title: expect.stringMatching(new RegExp(`^(Привіт|Вітаю) ${number} від zeta-${env().kind}, ${day}$`)),
              description: null,
              tags: null,
            },
          },
        ]);
      }

      const published = await publish(
        owner,
        request,
        publishPayload(request, [profile.id], {
          title: 'Ранок',
          description: 'Опис',
          tags: ['ранок'],
          inTikTok: true,
          options: choices,
          texts: { youtube: { title: '{Привіт|Вітаю} {n} від {profile}, {date}' } },
          video: proposal.data.map((item) => ({
            id: item.videoId,
            url: null,
            idUpload: request.idUpload,
            createdAt: '2026-11-22T10:00:00.000Z',
            account: { id: profile.id, title: '', value: profile.id },
            date: kyivWallTime(Date.parse(item.date)),
          })),
        }),
      );
      expect(published.statusCode, published.body).toBe(200);
      const stored = await storedPosts(env(), { requestId: request.id }, 'p.video_id, p.platform, p.title');
      expect(stored).toEqual(
        proposal.data.flatMap((item) => [
          { video_id: item.videoId, platform: 'tiktok', title: null },
          { video_id: item.videoId, platform: 'youtube', title: item.posts![0]!.words.title },
        ]),
      );
    });
  },
  { queue: 'work', sandbox },
);
