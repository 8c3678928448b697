import { expect, it } from 'vitest';
import * as t from '../../src/lib/i18n';
import { createUser, describeEachDatabase } from './helpers';
import { createAccount, type TestUser } from './backoffice-fixtures';

const option = (id: number) => ({ id, title: `#${id}`, value: id });

describeEachDatabase('profile groups and tag sets API', (env) => {
  const send = (user: TestUser, method: 'POST' | 'PATCH', url: string, payload: object) =>
    env().app.inject({ method, url, headers: user.headers, payload });

  it('requires a group name and at least one profile', async () => {
    const user = await createUser(env(), 'operator');
    const empty = await send(user, 'POST', '/api/accounts-group', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toEqual([t.validation.required, 'Мінімум один профіль']);
    const noAccounts = await send(user, 'POST', '/api/accounts-group', { name: 'Main', accounts: [] });
    expect(noAccounts.json().message).toEqual(['Мінімум один профіль']);
  });

  it('creates, renames and regroups, answering accounts as { id, title, value }', async () => {
    const user = await createUser(env(), 'operator');
    const first = await createAccount(env(), user, { comments: 'Kyiv' });
    const second = await createAccount(env(), user);
    const created = await send(user, 'POST', '/api/accounts-group', { name: ' Main ', accounts: [option(first.id)] });
    expect(created.statusCode).toBe(201);
    const { slots, ...group } = created.json();
    expect(group).toEqual({ id: group.id, name: 'Main', accounts: [{ id: first.id, title: `#${first.id} Kyiv`, value: first.id }] });
    // Not SPEC's: the form's group carries the slots it hands its profiles (tests/server/posting-slots.test.ts).
    expect(slots.source).toBe('installation');

    const edited = await send(user, 'PATCH', `/api/accounts-group/${group.id}`, { name: 'Renamed', accounts: [option(second.id)] });
    const { slots: editedSlots, ...renamed } = edited.json();
    expect(editedSlots).toEqual(slots);
    expect(renamed).toEqual({
      id: group.id,
      name: 'Renamed',
      accounts: [{ id: second.id, title: `#${second.id}`, value: second.id }],
    });
    const profile = (await env().app.inject({ url: `/api/accounts/${second.id}`, headers: user.headers })).json();
    expect(profile.group).toEqual({ id: group.id, name: 'Renamed' });
    const list = (await env().app.inject({ url: '/api/accounts-group', headers: user.headers })).json();
    expect(list).toEqual({ data: [renamed], page: 1, totalPages: 1, total: 1 });
  });

  it("offers a group the profiles in no group and its own, and refuses another group's or user's", async () => {
    const user = await createUser(env(), 'operator');
    const stranger = await createUser(env(), 'stranger');
    const [inA, inB, free] = [await createAccount(env(), user), await createAccount(env(), user), await createAccount(env(), user)];
    const strangers = await createAccount(env(), stranger);
    const groupA = (await send(user, 'POST', '/api/accounts-group', { name: 'A', accounts: [option(inA.id)] })).json();
    await send(user, 'POST', '/api/accounts-group', { name: 'B', accounts: [option(inB.id)] });

    const search = async (groupId: number) =>
      (await env().app.inject({ url: `/api/accounts/search?groupId=${groupId}`, headers: user.headers }))
        .json()
        .map((item: { id: number }) => item.id);
    expect(await search(0)).toEqual([free.id]);
    expect(await search(groupA.id)).toEqual([inA.id, free.id]);

    const taken = await send(user, 'PATCH', `/api/accounts-group/${groupA.id}`, { name: 'A', accounts: [option(inB.id)] });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().message).toEqual([t.groups.accountInOtherGroup(inB.id)]);
    const foreign = await send(user, 'POST', '/api/accounts-group', { name: 'C', accounts: [option(strangers.id)] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toEqual([t.groups.accountNotFound(strangers.id)]);
    // A refused change changes nothing.
    expect((await env().app.inject({ url: `/api/accounts-group/${groupA.id}`, headers: user.headers })).json().accounts).toEqual([
      { id: inA.id, title: `#${inA.id}`, value: inA.id },
    ]);
  });

  it('keeps the profiles of a deleted group', async () => {
    const user = await createUser(env(), 'operator');
    const account = await createAccount(env(), user);
    const group = (await send(user, 'POST', '/api/accounts-group', { name: 'A', accounts: [option(account.id)] })).json();
    expect((await env().app.inject({ method: 'DELETE', url: `/api/accounts-group/${group.id}`, headers: user.headers })).statusCode).toBe(
      204,
    );
    const profile = await env().app.inject({ url: `/api/accounts/${account.id}`, headers: user.headers });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().group).toBeNull();
  });

  it('requires a tag set name and at least one tag', async () => {
    const user = await createUser(env(), 'operator');
    const empty = await env().app.inject({ method: 'POST', url: '/api/tags', headers: user.headers, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toEqual([t.validation.required, 'Мінімум один тег']);
    const blankTags = await env().app.inject({
      method: 'POST',
      url: '/api/tags',
      headers: user.headers,
      payload: { name: 'A', tags: [' '] },
    });
    expect(blankTags.json().message).toEqual(['Мінімум один тег']);
    const onlySeparators = await env().app.inject({
      method: 'POST',
      url: '/api/tags',
      headers: user.headers,
      payload: { name: 'A', tags: ['кіно', ' ,; '] },
    });
    expect(onlySeparators.statusCode).toBe(400);
    expect(onlySeparators.json().message).toEqual(['Мінімум один тег']);
  });

  it('splits a tag a script sent with commas or semicolons in it, as the tag input splits what is typed', async () => {
    const user = await createUser(env(), 'operator');
    const created = await env().app.inject({
      method: 'POST',
      url: '/api/tags',
      headers: user.headers,
      payload: { name: 'Дозвілля', tags: ['Кіно, музика', 'театр;КІНО', ' ,книги; '] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().tags).toEqual(['кіно', 'музика', 'театр', 'книги']);
  });

  it('creates a tag set with an id, keeps its tags trimmed, lower-cased and unique, and edits', async () => {
    const user = await createUser(env(), 'operator');
    const created = await env().app.inject({
      method: 'POST',
      url: '/api/tags',
      headers: user.headers,
      payload: { name: 'Travel', tags: [' Sea ', 'sea', 'SUN', 'beach time'] },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json()).toEqual({ id, name: 'Travel', tags: ['sea', 'sun', 'beach', 'time'] });

    const edited = await env().app.inject({
      method: 'PATCH',
      url: `/api/tags/${id}`,
      headers: user.headers,
      payload: { name: 'Trips', tags: ['mountains'] },
    });
    expect(edited.json()).toEqual({ id, name: 'Trips', tags: ['mountains'] });
    expect((await env().app.inject({ url: '/api/tags', headers: user.headers })).json()).toEqual({
      data: [{ id, name: 'Trips', tags: ['mountains'] }],
      page: 1,
      totalPages: 1,
      total: 1,
    });
  });
});
