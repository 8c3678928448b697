import { describe, expect, it } from 'vitest';
import {
  countPosts,
  noPosts,
  postKindOf,
  postStateOf,
  setStatusOf,
  videoStatusOf,
  type PostState,
  type StoredPost,
} from '../../src/lib/post-states';
import { isHeld, waitFields, waitText } from '../../src/lib/post-waits';
import { failureColumns, failureText, storedFailure, videoErrorsOf } from '../../src/lib/post-failures';

/**
 * The one state of a post, a video's SPEC status and a set's, as issue 39 and SPEC define them:
 * each expectation is written from their words (a half-published set says so, a failed post keeps
 * SPEC's retry offered), not read back from the functions.
 */

const pending = (changes: Partial<StoredPost> = {}): StoredPost => ({
  status: 'pending',
  started: false,
  waitKind: null,
  failure: null,
  ...changes,
});

describe("a post's state, read from its row", () => {
  it('is published once done and failed once in error, whatever its wait columns still hold', () => {
    expect(postStateOf(pending({ status: 'done', waitKind: 'cap', started: true }))).toBe('published');
    expect(postStateOf(pending({ status: 'error', waitKind: 'retry', started: true }))).toBe('failed');
  });

  it('is held on a cap, a quota or a reconnection, started or not', () => {
    for (const waitKind of ['cap', 'quota', 'reconnect'] as const) {
      expect(postStateOf(pending({ waitKind }))).toBe('held');
      expect(postStateOf(pending({ waitKind, started: true }))).toBe('held');
      expect(isHeld(waitKind)).toBe(true);
    }
  });

  it('is uploading once a job took it, a retry after a failed attempt or a busy profile included, else scheduled', () => {
    expect(postStateOf(pending())).toBe('scheduled');
    expect(postStateOf(pending({ waitKind: 'busy' }))).toBe('scheduled');
    expect(postStateOf(pending({ started: true }))).toBe('uploading');
    expect(postStateOf(pending({ started: true, waitKind: 'retry' }))).toBe('uploading');
    expect(isHeld('retry')).toBe(false);
    expect(isHeld('busy')).toBe(false);
    expect(isHeld(null)).toBe(false);
  });

  it("says why: a waiting post its wait's kind, a failed one its failure's, a published one nothing", () => {
    expect(postKindOf(pending({ waitKind: 'quota' }))).toBe('quota');
    expect(postKindOf(pending())).toBeNull();
    expect(postKindOf(pending({ status: 'error', failure: 'grant_revoked', waitKind: 'retry' }))).toBe('grant_revoked');
    expect(postKindOf(pending({ status: 'done', failure: 'unavailable', waitKind: 'cap' }))).toBeNull();
  });
});

describe("a video's SPEC status, from its posts", () => {
  const cases: [PostState[], string][] = [
    [['published', 'failed'], 'error'],
    [['failed', 'held'], 'error'],
    [['published', 'scheduled'], 'publication'],
    [['published', 'uploading'], 'publication'],
    [['published', 'held'], 'publication'],
    [['published', 'published'], 'success'],
    [['published', 'cancelled'], 'success'],
    [['cancelled'], 'cancelled'],
    [[], 'noactive'],
  ];
  it.each(cases)('%j → %s', (states, status) => {
    expect(videoStatusOf(states)).toBe(status);
  });
});

describe("a set's status, from its videos", () => {
  it('is in error while any video is, on its way while any renders or publishes, published only once every posted video is', () => {
    expect(setStatusOf(['success', 'error', 'publication'])).toBe('error');
    expect(setStatusOf(['success', 'loading'])).toBe('publication');
    expect(setStatusOf(['success', 'publication'])).toBe('publication');
    expect(setStatusOf(['success', 'noactive'])).toBe('success');
    expect(setStatusOf(['cancelled', 'noactive'])).toBe('cancelled');
    expect(setStatusOf(['noactive'])).toBe('noactive');
    expect(setStatusOf([])).toBe('noactive');
  });
});

describe("a set's posts counted by state", () => {
  it('counts an upload under way as still scheduled, and each other state as itself', () => {
    const counts = noPosts();
    for (const state of ['scheduled', 'uploading', 'published', 'held', 'failed', 'cancelled'] as const) countPosts(counts, state);
    countPosts(counts, 'published', 3);
    expect(counts).toEqual({ published: 4, scheduled: 2, held: 1, failed: 1, cancelled: 1 });
    expect(noPosts()).toEqual({ published: 0, scheduled: 0, held: 0, failed: 0, cancelled: 0 });
  });
});

describe('a failure, stored as a kind and worded at the edge', () => {
  it("keeps the platform's answer beside the kind, and gives the same failure back from its two columns", () => {
    const failure = { kind: 'unavailable' as const, answer: 'Backend Error', status: 500 };
    const { kind, detail } = failureColumns(failure);
    expect(kind).toBe('unavailable');
    expect(detail).toEqual({ answer: 'Backend Error', status: 500 });
    expect(storedFailure(kind, detail)).toEqual(failure);
  });

  it("says the platform, what happened and the platform's own words", () => {
    expect(failureText('tiktok', { kind: 'unavailable', answer: 'Backend Error' })).toBe(
      'TikTok: Платформа тимчасово недоступна (Backend Error)',
    );
    expect(failureText('youtube', { kind: 'rejected' })).toBe('YouTube: Платформа відхилила запит');
    expect(failureText('instagram', { kind: 'unknown', text: 'Instagram: стара причина' })).toBe('Instagram: стара причина');
  });

  it("fills SPEC's error field of each platform whose post failed, and only those", () => {
    expect(
      videoErrorsOf([
        { platform: 'youtube', error: null },
        { platform: 'tiktok', error: 'TikTok: Платформа відхилила запит' },
        { platform: 'instagram', error: 'Instagram: Файл відео не знайдено' },
      ]),
    ).toEqual({
      error: null,
      errorTiktok: 'TikTok: Платформа відхилила запит',
      errorInstagram: 'Instagram: Файл відео не знайдено',
      errorFacebook: null,
    });
  });
});

describe("a post's wait, worded where the answer is made", () => {
  it('names why the post waits and what comes next, for each kind of wait', () => {
    expect(waitText('tiktok', { kind: 'retry', detail: { failure: { kind: 'unavailable', answer: 'Backend Error' } } })).toBe(
      'Спроба не вдалася: TikTok: Платформа тимчасово недоступна (Backend Error)',
    );
    expect(waitText('tiktok', { kind: 'busy', detail: {} })).toBe('Профіль зараз завантажує інше відео в TikTok');
    expect(waitText('youtube', { kind: 'quota', detail: { failure: { kind: 'rate_limited' } } })).toBe(
      'Платформа просить зачекати: YouTube: Платформа обмежила частоту запитів, повторимо пізніше',
    );
    expect(waitText('instagram', { kind: 'reconnect', detail: {} })).toBe('Доступ Instagram відкликано — підключіть профіль знову');
    expect(waitText('instagram', { kind: 'cap', detail: { refused: true } })).toBe('Ліміт Instagram вичерпано — так відповіла платформа');
    expect(waitText('youtube', { kind: 'cap', detail: { limit: 100, windowHours: null } })).toBe(
      'Ліміт YouTube: 100 завантажень на день для проєкту Google вичерпано (доба за тихоокеанським часом)',
    );
    expect(waitText('instagram', { kind: 'cap', detail: { limit: 2, windowHours: 24 } })).toBe(
      'Ліміт Instagram: 2 публікації за 24 год вичерпано',
    );
  });

  it('answers no wait for a post that does not wait, and the kind beside its words for one that does', () => {
    expect(waitFields(null)).toEqual({ waitKind: null, waitReason: null });
    expect(waitFields({ platform: 'tiktok', kind: null, detail: { failure: { kind: 'rejected' } } })).toEqual({
      waitKind: null,
      waitReason: null,
    });
    expect(waitFields({ platform: 'tiktok', kind: 'busy', detail: {} })).toEqual({
      waitKind: 'busy',
      waitReason: 'Профіль зараз завантажує інше відео в TikTok',
    });
  });

  it('names the missing settings of an unconfigured app, and adds no brackets for an empty answer', () => {
    expect(failureText('youtube', { kind: 'app_missing', variables: 'GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET' })).toBe(
      'YouTube: YouTube не налаштовано на сервері: задайте GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET',
    );
    expect(failureText('tiktok', { kind: 'gave_up', answer: '' })).toBe('TikTok: Публікацію не вдалося завершити після кількох спроб');
  });
});
