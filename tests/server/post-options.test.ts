import { expect, it } from 'vitest';
import type { AccountDetail, PostingBudgets, PostOptions, ProfilePostingRules } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { issueSandboxToken, SandboxState } from '../../server/sandbox/index';
import { creatorSettings } from '../../server/sandbox/tiktok/creator';
import { answerSandboxConsent } from '../fixtures/sandbox-consent';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, sandboxControl, withSandboxServer } from './helpers';
import { publishPayload, renderedRequest, type RenderedRequest, settledSet } from './publishing-fixtures';

const sandbox = new SandboxState({});

/** A sandbox TikTok login whose creator_info offers PUBLIC_TO_EVERYONE (or, with `open` false, does not). */
function tiktokLogin(prefix: string, open: boolean) {
  for (let index = 0; ; index++) {
    const login = `${prefix}-${index}@tiktok`;
    if (creatorSettings(login, false).privacy_level_options.includes('PUBLIC_TO_EVERYONE') === open) return login;
  }
}

describeEachDatabase(
  'Every platform’s own choices on every post',
  (env) => {
    const network = withSandboxServer(env);

    /** A profile on TikTok alone, with nothing remembered: the operator has chosen nothing yet. */
    async function tiktokProfile(user: TestUser, login: string): Promise<AccountDetail> {
      const account = await createAccount(env(), user, {
        proxy: network().proxy.url,
        comments: login,
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', login),
      });
      await env().db.sql('DELETE FROM posting_defaults WHERE account_id = $1', [account.id]);
      return account;
    }

    async function youtubeProfile(user: TestUser, label: string): Promise<AccountDetail> {
      const account = await createAccount(env(), user, {
        proxy: network().proxy.url,
        comments: label,
        isActiveYouTube: true,
        YouTubeAuthClientId: `${label}.apps.googleusercontent.com`,
        YouTubeAuthClientSecret: 'client-secret',
        isActiveInstagram: true,
        InstagramLogin: `${label}.insta`,
        InstagramPassword: 'instagram-password',
      });
      await env().db.sql('DELETE FROM posting_defaults WHERE account_id = $1', [account.id]);
      const link = await fetch(`${network().baseUrl}/api/accounts/connect-youtube/${account.id}`, {
        method: 'POST',
        headers: user.headers,
      });
      await answerSandboxConsent(link);
      return account;
    }

    const send = (user: TestUser, request: RenderedRequest, payload: object) =>
      env().app.inject({ method: 'POST', url: `/api/upload-video/${request.idUpload}`, headers: user.headers, payload });

    const settled = (user: TestUser, idUpload: string) => settledSet(env(), user.headers, idUpload);

    /** What the platform received for its newest post, in its own field names. */
    async function lastReceived(platform: string) {
      const answer = (await sandboxControl(env().app, { url: '/sandbox/_posts' })).json<{
        posts: Record<string, { received: Record<string, any> }[]>;
      }>();
      return answer.posts[platform]!.at(-1)!.received;
    }

    it('refuses a TikTok publish nobody chose a privacy level for, and sends the level and switches chosen', async () => {
      const owner = await createUser(env(), `tt-owner-${env().kind}`);
      const login = tiktokLogin(`open-${env().kind}`, true);
      const profile = await tiktokProfile(owner, login);
      const request = await renderedRequest(env(), owner.id, 1);
      const flags = { inYouTube: false, inTikTok: true, inInstagram: false };

      const refused = await send(owner, request, publishPayload(request, [profile.id], flags));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(t.postingRules.tiktokPrivacyRequired(`#${profile.id} ${login}`));

      const rules = await env().app.inject({ method: 'GET', url: `/api/posting-rules?accountIds=${profile.id}`, headers: owner.headers });
      const [rule] = rules.json<{ data: ProfilePostingRules[] }>().data;
      const creator = creatorSettings(login, false);
      expect(rule!.tiktok).toMatchObject({
        privacyLevelOptions: creator.privacy_level_options,
        commentDisabled: creator.comment_disabled,
        maxVideoPostDurationSec: creator.max_video_post_duration_sec,
      });
      expect(rule!.tiktok!.nickname).not.toBe('');

      const options: PostOptions = { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true, brandOrganicToggle: true } };
      const accepted = await send(owner, request, publishPayload(request, [profile.id], { ...flags, options } as never));
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await settled(owner, request.idUpload)).video[0]!.status).toBe('success');
      expect((await lastReceived('tiktok')).post_info).toMatchObject({
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_duet: true,
        disable_comment: creator.comment_disabled,
        disable_stitch: creator.stitch_disabled,
        brand_organic_toggle: true,
        brand_content_toggle: false,
      });
    });

    it('refuses a privacy level creator_info does not offer, and private branded content', async () => {
      const owner = await createUser(env(), `tt-private-${env().kind}`);
      const login = tiktokLogin(`closed-${env().kind}`, false);
      const profile = await tiktokProfile(owner, login);
      const request = await renderedRequest(env(), owner.id, 1);
      const flags = { inYouTube: false, inTikTok: true, inInstagram: false };
      const title = `#${profile.id} ${login}`;

      const notOffered = await send(owner, request, {
        ...publishPayload(request, [profile.id], flags),
        options: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
      });
      expect(notOffered.statusCode).toBe(400);
      expect(notOffered.json().message).toBe(t.postingRules.privacyNotOffered(title, t.postingRules.privacyLevels.PUBLIC_TO_EVERYONE!));

      const branded = await send(owner, request, {
        ...publishPayload(request, [profile.id], flags),
        options: { tiktok: { privacyLevel: 'SELF_ONLY', brandContentToggle: true } },
      });
      expect(branded.statusCode).toBe(400);
      expect(branded.json().message).toBe(t.postingRules.brandedPrivate);
      const { rows } = await env().db.sql('SELECT count(*)::int AS posts FROM video_posts WHERE video_id = $1', [request.videos[0]!.id]);
      expect(rows[0].posts).toBe(0);
    });

    it('needs the made-for-kids declaration on YouTube unless the profile remembers one, and sends the saved choices', async () => {
      const owner = await createUser(env(), `yt-owner-${env().kind}`);
      const label = `kids-${env().kind}`;
      const profile = await youtubeProfile(owner, label);
      const request = await renderedRequest(env(), owner.id, 1);
      const flags = { inYouTube: true, inTikTok: false, inInstagram: true };

      const refused = await send(owner, request, publishPayload(request, [profile.id], flags));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(t.postingRules.youtubeKidsRequired(`#${profile.id} ${label}`));

      const saved = await env().app.inject({
        method: 'PUT',
        url: `/api/posting-rules/${profile.id}`,
        headers: owner.headers,
        payload: {
          youtube: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: true, categoryId: '27' },
          instagram: { shareToFeed: false },
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().data.saved.youtube).toEqual({ privacyStatus: 'unlisted', selfDeclaredMadeForKids: true, categoryId: '27' });

      const accepted = await send(owner, request, publishPayload(request, [profile.id], flags));
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await settled(owner, request.idUpload)).video[0]!.status).toBe('success');
      expect(await lastReceived('youtube')).toMatchObject({
        status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: true },
        snippet: { categoryId: '27' },
      });
      expect(await lastReceived('instagram')).toMatchObject({ share_to_feed: 'false' });
    });

    it('Save checks the plan against the creator_info its form just read, without asking TikTok again', async () => {
      const owner = await createUser(env(), `tt-reuse-${env().kind}`);
      const login = tiktokLogin(`reuse-${env().kind}`, true);
      const profile = await tiktokProfile(owner, login);
      const request = await renderedRequest(env(), owner.id, 1);
      const creatorCalls = () => sandbox.requests.filter((entry) => entry.url.includes('/creator_info/query')).length;

      const before = creatorCalls();
      await env().app.inject({ method: 'GET', url: `/api/posting-rules?accountIds=${profile.id}`, headers: owner.headers });
      expect(creatorCalls()).toBe(before + 1);
      const options: PostOptions = { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } };
      const flags = { inYouTube: false, inTikTok: true, inInstagram: false, options };
      const accepted = await send(owner, request, publishPayload(request, [profile.id], flags as never));
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(creatorCalls()).toBe(before + 1);
    });

    it('checks lengths, captions and hashtags before anything is queued', async () => {
      const owner = await createUser(env(), `checks-${env().kind}`);
      const login = tiktokLogin(`checks-${env().kind}`, true);
      const profile = await createAccount(env(), owner, {
        proxy: network().proxy.url,
        comments: login,
        isActiveYouTube: true,
        YouTubeAuthClientId: 'checks.apps.googleusercontent.com',
        YouTubeAuthClientSecret: 'client-secret',
        isActiveTikTok: true,
        TikTiokAuthStr: issueSandboxToken('tiktok', login),
        isActiveInstagram: true,
        InstagramLogin: 'checks.insta',
        InstagramPassword: 'instagram-password',
      });
      const request = await renderedRequest(env(), owner.id, 1);
      const videoId = request.videos[0]!.id;
      const only = (platform: 'youtube' | 'tiktok' | 'instagram') => ({
        inYouTube: platform === 'youtube',
        inTikTok: platform === 'tiktok',
        inInstagram: platform === 'instagram',
      });
      const refusal = async (platform: 'youtube' | 'tiktok' | 'instagram', overrides: object = {}) => {
        const response = await send(owner, request, { ...publishPayload(request, [profile.id], only(platform)), ...overrides });
        expect(response.statusCode, response.body).toBe(400);
        return response.json().message as string;
      };
      const max = creatorSettings(login, false).max_video_post_duration_sec;

      await env().db.sql('UPDATE videos SET duration_seconds = $2 WHERE id = $1', [videoId, max + 1]);
      expect(await refusal('tiktok')).toBe(t.postingRules.tooLong('TikTok', videoId, max + 1, max));
      await env().db.sql('UPDATE videos SET duration_seconds = 181 WHERE id = $1', [videoId]);
      expect(await refusal('youtube')).toBe(t.postingRules.tooLong('YouTube Shorts', videoId, 181, 180));
      await env().db.sql('UPDATE videos SET duration_seconds = 2 WHERE id = $1', [videoId]);
      expect(await refusal('instagram')).toBe(t.postingRules.tooShort('Instagram Reels', videoId, 2, 3));
      await env().db.sql('UPDATE videos SET duration_seconds = 10 WHERE id = $1', [videoId]);
      expect(await refusal('instagram', { options: { instagram: { thumbOffset: 20_000 } } })).toBe(
        t.postingRules.thumbOffsetBeyond(videoId),
      );

      expect(await refusal('tiktok', { description: 'а'.repeat(2300) })).toMatch(/^TikTok: підпис задовгий/);
      expect(await refusal('instagram', { tags: Array.from({ length: 31 }, (_, index) => `тег${index}`) })).toBe(
        t.postingRules.tooManyHashtags(31, 30),
      );
      expect(await refusal('youtube', { title: 'н'.repeat(101) })).toBe(t.postingRules.titleTooLong(101, 100));
      const { rows } = await env().db.sql('SELECT count(*)::int AS posts FROM video_posts WHERE video_id = $1', [videoId]);
      expect(rows[0].posts).toBe(0);
    });

    it('reads creator_info and the Instagram posting limit of a profile connected only through the consent links', async () => {
      const owner = await createUser(env(), `linked-${env().kind}`);
      const login = tiktokLogin(`linked-${env().kind}`, true);
      const account = await createAccount(env(), owner, { proxy: network().proxy.url, comments: login });
      for (const platform of ['tiktok', 'instagram'] as const) {
        const link = await fetch(`${network().baseUrl}/api/accounts/connect-${platform}/${account.id}`, {
          method: 'POST',
          headers: owner.headers,
        });
        await answerSandboxConsent(link, 'allow', 'follow', { username: login });
      }

      const rules = await env().app.inject({ method: 'GET', url: `/api/posting-rules?accountIds=${account.id}`, headers: owner.headers });
      const [rule] = rules.json<{ data: ProfilePostingRules[] }>().data;
      expect(rule!.tiktokError).toBeNull();
      expect(rule!.tiktok!.privacyLevelOptions).toEqual(creatorSettings(login, false).privacy_level_options);
      const budget = await env().app.inject({
        method: 'GET',
        url: `/api/accounts/budget?accountIds=${account.id}&date=2035-06-01`,
        headers: owner.headers,
      });
      const instagram = budget.json<PostingBudgets>().budgets.find((entry) => entry.platform === 'instagram');
      expect(instagram?.limit).toEqual(expect.any(Number));
    });
  },
  { queue: 'work', sandbox },
);
