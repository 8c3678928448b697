import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { isGroupOpen, menuStore } from '../../src/machines/menu-store';
import { draftOf, publishDrafts } from '../../src/machines/publish-draft-store';
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
  it('keeps each part of a draft as it changes, by request, and forgets one once sent', () => {
    publishDrafts.trigger.keep({ idUpload: 'a', draft: { accounts: [{ id: 1, title: '#1', value: 1 }] } });
    publishDrafts.trigger.keep({
      idUpload: 'a',
      draft: { fields: { title: 'x', description: '', tags: [], inYouTube: true, inTikTok: false, inInstagram: false } },
    });
    publishDrafts.trigger.keep({ idUpload: 'b', draft: { videos: [] } });
    expect(draftOf('a')).toMatchObject({ accounts: [{ id: 1 }], fields: { title: 'x' } });
    expect(draftOf(undefined)).toBeUndefined();
    publishDrafts.trigger.forget({ idUpload: 'a' });
    expect(draftOf('a')).toBeUndefined();
    expect(draftOf('b')).toEqual({ videos: [] });
    publishDrafts.trigger.forget({ idUpload: 'b' });
  });

  it('the publish machine opens with a draft left behind and keeps every change of the assignment in it', async () => {
    const video = { id: 31, url: '/a', idUpload: 'c', createdAt: '', account: null, date: '2026-12-01T10:00' };
    const calls = deferredActors(['loadRequest', 'publish'] as const);
    const actor = createActor(publishMachine.provide({ actors: calls.actors, actions: { 'leave to request list': () => {} } }), {
      input: { idUpload: 'c', draft: { accounts: [{ id: 4, title: '#4', value: 4 }], videos: [video] } },
    }).start();
    await calls.resolve('loadRequest', { id: 1, idUpload: 'c', video: [], accounts: [], group: [], tagProfile: [] });
    expect(actor.getSnapshot().context).toMatchObject({ accounts: [{ id: 4 }], videos: [video] });
    actor.send({ type: 'video.date', videoId: 31, date: '2026-12-02T10:00' });
    expect(draftOf('c')).toMatchObject({ accounts: [{ id: 4 }], videos: [{ id: 31, date: '2026-12-02T10:00' }] });
    actor.send({ type: 'video.profile', videoId: 31, profileId: 4 });
    expect(draftOf('c')?.videos).toMatchObject([{ account: { id: 4 } }]);
    actor.send({ type: 'video.remove', videoId: 31 });
    expect(draftOf('c')?.videos).toEqual([]);
    actor.send({ type: 'profiles.choose', profiles: [] });
    expect(draftOf('c')?.accounts).toEqual([]);
    actor.send({ type: 'group.pick', group: { id: 1, name: 'g', accounts: [{ id: 5, title: '#5', value: 5 }] } });
    expect(draftOf('c')?.accounts).toEqual([{ id: 5, title: '#5', value: 5 }]);
    actor.send({
      type: 'form.submit',
      fields: { title: 't', description: '', tags: ['a'], inYouTube: true, inTikTok: false, inInstagram: false },
    });
    expect(actor.getSnapshot().value).toBe('editing');
    publishDrafts.trigger.forget({ idUpload: 'c' });
  });
});
