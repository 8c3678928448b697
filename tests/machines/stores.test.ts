import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { isGroupOpen, menuStore } from '../../src/machines/menu-store';
import { draftKeyOf, draftOf, publishDrafts, videosFromDraft } from '../../src/machines/publish-draft-store';
import { publishMachine } from '../../src/machines/publish-machine';
import { deferredActors } from './deferred-actors';

describe('menu store', () => {
  it('collapses and expands the sidebar', () => {
    const before = menuStore.getSnapshot().context.collapsed;
    menuStore.trigger.toggleCollapsed();
    expect(menuStore.getSnapshot().context.collapsed).toBe(!before);
    menuStore.trigger.toggleCollapsed();
    expect(menuStore.getSnapshot().context.collapsed).toBe(before);
  });

  it('remembers a group opened or closed by hand, and otherwise follows the path', () => {
    menuStore.trigger.toggleGroup({ id: 'video', wasOpen: true });
    expect(menuStore.getSnapshot().context.open).toMatchObject({ video: false });
    expect(isGroupOpen(menuStore.getSnapshot().context, 'video', true)).toBe(false);
    menuStore.trigger.toggleGroup({ id: 'video', wasOpen: false });
    expect(isGroupOpen(menuStore.getSnapshot().context, 'video', false)).toBe(true);
    expect(isGroupOpen({ collapsed: false, open: {} }, 'accounts', true)).toBe(true);
    expect(isGroupOpen({ collapsed: false, open: {} }, 'accounts', false)).toBe(false);
  });
});

describe('publish drafts', () => {
  const fields = { title: 'x', description: '', tags: [], inYouTube: true, inTikTok: false, inInstagram: false };

  it('keeps each part of a draft as it changes, by user and request, and forgets one once sent', () => {
    const key = draftKeyOf(7, 'a')!;
    publishDrafts.trigger.keep({ key, draft: { accounts: [{ id: 1, title: '#1', value: 1 }] } });
    publishDrafts.trigger.keep({ key, draft: { fields } });
    publishDrafts.trigger.keep({ key: draftKeyOf(7, 'b')!, draft: { videos: [] } });
    expect(draftOf(key)).toMatchObject({ accounts: [{ id: 1 }], fields: { title: 'x' } });
    // Another user on the same browser has no draft of the same request.
    expect(draftOf(draftKeyOf(8, 'a'))).toBeUndefined();
    expect(draftKeyOf(undefined, 'a')).toBeUndefined();
    expect(draftOf(undefined)).toBeUndefined();
    publishDrafts.trigger.forget({ key });
    expect(draftOf(key)).toBeUndefined();
    expect(draftOf(draftKeyOf(7, 'b'))).toEqual({ videos: [] });
    publishDrafts.trigger.forgetAll();
    expect(draftOf(draftKeyOf(7, 'b'))).toBeUndefined();
  });

  it('reads only the parts of a stored draft that have the form’s shape, and keeps the newest 30', () => {
    publishDrafts.trigger.keep({ key: 'broken', draft: { fields: 'nonsense', accounts: [{ id: 'x' }], videos: [{ id: 3 }] } as never });
    expect(draftOf('broken')).toEqual({ videos: [{ id: 3 }] });
    // All in one millisecond, as a fast machine keeps them: the last kept is still the newest.
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    for (let index = 0; index < 35; index++) publishDrafts.trigger.keep({ key: `k${index}`, draft: { fields } });
    now.mockRestore();
    expect(Object.keys(publishDrafts.getSnapshot().context.drafts)).toHaveLength(30);
    expect(draftOf('k34')).toBeDefined();
  });

  it('drops a stored part whose items lost their shape, whole', () => {
    publishDrafts.trigger.keep({
      key: 'half-broken',
      draft: { fields: { description: 'без назви' }, accounts: 'nonsense', videos: [{ id: 3 }, { id: '4' }] } as never,
    });
    expect(draftOf('half-broken')).toEqual({});
    publishDrafts.trigger.keep({ key: 'videos-only', draft: { videos: 'nonsense' } as never });
    expect(draftOf('videos-only')).toEqual({});
    publishDrafts.trigger.keep({ key: 'nulled', draft: { fields: null, accounts: [null] } as never });
    expect(draftOf('nulled')).toEqual({});
    publishDrafts.trigger.forgetAll();
  });

  it('makes room by dropping the draft kept longest ago, whatever order the drafts were kept in', () => {
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(5_000);
    publishDrafts.trigger.keep({ key: 'newer', draft: { fields } });
    // The clock was set back (or another tab kept this one): kept later, but at an earlier time.
    now.mockReturnValue(1_000);
    publishDrafts.trigger.keep({ key: 'older', draft: { fields } });
    for (let index = 0; index < 29; index++) {
      now.mockReturnValue(2_000 + index);
      publishDrafts.trigger.keep({ key: `k${index}`, draft: { fields } });
    }
    now.mockRestore();
    expect(draftOf('older')).toBeUndefined();
    expect(draftOf('newer')).toBeDefined();
    expect(draftOf('k0')).toBeDefined();
    publishDrafts.trigger.forgetAll();
  });

  it('puts back the draft onto the request as it is now: profiles still offered, videos still there, fresh links', () => {
    const fresh = [
      { id: 31, url: '/fresh-31', idUpload: 'c', createdAt: '', account: null, date: '' },
      { id: 32, url: '/fresh-32', idUpload: 'c', createdAt: '', account: null, date: '' },
    ];
    const kept = [{ ...fresh[1]!, url: '/stale', account: { id: 4, title: '#4', value: 4 }, date: '2026-12-01T10:00', byHand: true }];
    // A profile picked by hand stays so across the return.
    expect(videosFromDraft(fresh, kept)).toEqual([
      { ...fresh[1], account: { id: 4, title: '#4', value: 4 }, date: '2026-12-01T10:00', byHand: true, lostProfile: null },
    ]);
    expect(videosFromDraft(fresh, [{ ...fresh[0]!, id: 99 }])).toEqual(fresh);
    // One video of the draft gone from the request: the request's list as it is now.
    expect(videosFromDraft(fresh, [fresh[0]!, { ...fresh[0]!, id: 99 }])).toEqual(fresh);
    // A draft from before dates and hand-picked profiles were kept: no date, chosen by the spread.
    const older = [{ id: 31, url: '/stale', idUpload: 'c', createdAt: '', account: null }] as never;
    expect(videosFromDraft(fresh, older)).toEqual([{ ...fresh[0], account: null, date: '', byHand: false, lostProfile: null }]);
    expect(videosFromDraft(fresh, undefined)).toEqual(fresh);
  });

  it('the publish machine opens with a draft left behind and keeps every change of the assignment in it', async () => {
    const key = draftKeyOf(1, 'c')!;
    const video = { id: 31, url: '/a', idUpload: 'c', createdAt: '', account: null, date: '2026-12-01T10:00' };
    const calls = deferredActors(['loadRequest', 'publish'] as const);
    const actor = createActor(publishMachine.provide({ actors: calls.actors, actions: { 'leave to request list': () => {} } }), {
      input: {
        idUpload: 'c',
        draftKey: key,
        draft: {
          accounts: [
            { id: 4, title: '#4', value: 4 },
            { id: 6, title: '#6', value: 6 },
          ],
          videos: [video],
        },
      },
    }).start();
    await calls.resolve('loadRequest', {
      id: 1,
      idUpload: 'c',
      video: [{ id: 31, url: '/a', idUpload: 'c', createdAt: '' }],
      // Profile 6 was deleted since: it is no longer offered, so no longer chosen.
      accounts: [{ id: 4, title: '#4', value: 4 }],
      group: [],
      tagProfile: [],
    });
    expect(actor.getSnapshot().context).toMatchObject({ accounts: [{ id: 4 }], videos: [video] });
    actor.send({ type: 'video.date', videoId: 31, date: '2026-12-02T10:00' });
    expect(draftOf(key)).toMatchObject({ accounts: [{ id: 4 }], videos: [{ id: 31, date: '2026-12-02T10:00' }] });
    actor.send({ type: 'video.profile', videoId: 31, profileId: 4 });
    expect(draftOf(key)?.videos).toMatchObject([{ account: { id: 4 } }]);
    actor.send({ type: 'video.remove', videoId: 31 });
    expect(draftOf(key)?.videos).toEqual([]);
    actor.send({ type: 'profiles.choose', profiles: [] });
    expect(draftOf(key)?.accounts).toEqual([]);
    actor.send({ type: 'group.pick', group: { id: 1, name: 'g', accounts: [{ id: 5, title: '#5', value: 5 }] } });
    expect(draftOf(key)?.accounts).toEqual([{ id: 5, title: '#5', value: 5 }]);
    actor.send({
      type: 'form.submit',
      fields: { title: 't', description: '', tags: ['a'], inYouTube: true, inTikTok: false, inInstagram: false },
    });
    expect(actor.getSnapshot().value).toBe('editing');
  });
});
