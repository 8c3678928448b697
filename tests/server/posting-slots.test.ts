import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import type { AccountDetail, EffectiveSlots } from '../../src/lib/contract';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';
import { createAccount, type TestUser } from './backoffice-fixtures';

/** Issue 31.2: a profile's posting slots, its group's as its default, the installation's under both. */

// Not the built-in defaults, so the answers show these came from the installation's settings.
const installation = { from: '10:00', to: '20:00', minGapMinutes: 60, days: [1, 2, 3, 4, 5] };
const weekend = { from: '12:00', to: '18:30', minGapMinutes: 120, days: [6, 7] };
const mornings = { from: '07:05', to: '11:55', minGapMinutes: 0, days: [1, 3, 5] };

describeEachDatabase(
  'posting slots',
  (env) => {
    const send = (user: TestUser, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      env().app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
    const profile = async (user: TestUser, id: number) => (await send(user, 'GET', `/api/accounts/${id}`)).json<AccountDetail>();

    async function groupOf(test: TestEnv, user: TestUser, accountIds: number[]) {
      const accounts = accountIds.map((id) => ({ id, title: `#${id}`, value: id }));
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/accounts-group',
        headers: user.headers,
        payload: { name: 'Ранкові', accounts },
      });
      expect(response.statusCode).toBe(201);
      return response.json<{ id: number; slots: EffectiveSlots }>();
    }

    it('saves a profile’s slots and reads them back on the profile', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      const saved = await send(user, 'PUT', `/api/accounts/${account.id}/slots`, weekend);
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({ ...weekend, source: 'profile' });
      expect((await profile(user, account.id)).slots).toEqual({ ...weekend, source: 'profile' });

      // Days come back in weekday order, whatever order they were sent in.
      await send(user, 'PUT', `/api/accounts/${account.id}/slots`, { ...weekend, days: [7, 1, 4] });
      expect((await profile(user, account.id)).slots.days).toEqual([1, 4, 7]);
    });

    it('takes the installation’s slots, then its group’s, then its own, and falls back as each is removed', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      expect((await profile(user, account.id)).slots).toEqual({ ...installation, source: 'installation' });

      const group = await groupOf(env(), user, [account.id]);
      expect(group.slots).toEqual({ ...installation, source: 'installation' });
      expect((await profile(user, account.id)).slots.source).toBe('installation');

      const groupSaved = await send(user, 'PUT', `/api/accounts-group/${group.id}/slots`, weekend);
      expect(groupSaved.json()).toEqual({ ...weekend, source: 'group' });
      expect((await send(user, 'GET', `/api/accounts-group/${group.id}`)).json().slots).toEqual({ ...weekend, source: 'group' });
      expect((await profile(user, account.id)).slots).toEqual({ ...weekend, source: 'group' });

      await send(user, 'PUT', `/api/accounts/${account.id}/slots`, mornings);
      expect((await profile(user, account.id)).slots).toEqual({ ...mornings, source: 'profile' });

      const cleared = await send(user, 'DELETE', `/api/accounts/${account.id}/slots`);
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toEqual({ ...weekend, source: 'group' });

      expect((await send(user, 'DELETE', `/api/accounts-group/${group.id}/slots`)).json()).toEqual({
        ...installation,
        source: 'installation',
      });
      expect((await profile(user, account.id)).slots).toEqual({ ...installation, source: 'installation' });

      // A profile that leaves the group leaves its slots behind.
      await send(user, 'PUT', `/api/accounts-group/${group.id}/slots`, weekend);
      const other = await createAccount(env(), user);
      await env().app.inject({
        method: 'PATCH',
        url: `/api/accounts-group/${group.id}`,
        headers: user.headers,
        payload: { name: 'Ранкові', accounts: [{ id: other.id, title: '', value: other.id }] },
      });
      expect((await profile(user, account.id)).slots.source).toBe('installation');
      expect((await profile(user, other.id)).slots).toEqual({ ...weekend, source: 'group' });
    });

    it('refuses slots that break a rule with 400 and the form’s message for the field', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      const group = await groupOf(env(), user, [account.id]);
      const cases: [object, string[]][] = [
        [{ ...weekend, from: '9:00' }, [t.postingSlots.fromInvalid]],
        [{ ...weekend, from: '24:00' }, [t.postingSlots.fromInvalid]],
        [{ ...weekend, from: '12:03' }, [t.postingSlots.fromInvalid]],
        [{ ...weekend, to: '18:61' }, [t.postingSlots.toInvalid]],
        [{ ...weekend, to: '12:00' }, [t.postingSlots.toNotAfterFrom]],
        [{ ...weekend, from: '20:00', to: '02:00' }, [t.postingSlots.toNotAfterFrom]],
        [{ ...weekend, minGapMinutes: -1 }, [t.postingSlots.gapInvalid]],
        [{ ...weekend, minGapMinutes: 1441 }, [t.postingSlots.gapInvalid]],
        [{ ...weekend, minGapMinutes: 1.5 }, [t.validation.wrongType('minGapMinutes', t.validation.types.integer!)]],
        [{ ...weekend, days: [] }, [t.postingSlots.daysRequired]],
        [{ ...weekend, days: [0, 1] }, [t.postingSlots.daysInvalid]],
        [{ ...weekend, days: [8] }, [t.postingSlots.daysInvalid]],
        [{ ...weekend, days: [6, 6] }, [t.postingSlots.daysInvalid]],
        [{ ...weekend, days: [1, 2, 3, 4, 5, 6, 7, 1] }, [t.validation.tooMany('days')]],
        [{ ...weekend, days: ['6'] }, [t.validation.wrongType('days.0', t.validation.types.integer!)]],
        [
          { from: '', to: '', minGapMinutes: 1441, days: [] },
          [t.postingSlots.fromInvalid, t.postingSlots.toInvalid, t.postingSlots.gapInvalid, t.postingSlots.daysRequired],
        ],
        [{ to: '18:00', minGapMinutes: 10, days: [1] }, [t.validation.required]],
        [{ ...weekend, extra: 1 }, [t.validation.unknownField('extra')]],
      ];
      for (const url of [`/api/accounts/${account.id}/slots`, `/api/accounts-group/${group.id}/slots`]) {
        for (const [payload, messages] of cases) {
          const response = await send(user, 'PUT', url, payload);
          expect(response.statusCode, JSON.stringify(payload)).toBe(400);
          expect(response.json().message, JSON.stringify(payload)).toEqual(messages);
        }
      }
      expect((await profile(user, account.id)).slots.source).toBe('installation');
    });

    it('lets only the owner and an admin read or change a profile’s and a group’s slots', async () => {
      const owner = await createUser(env(), 'owner');
      const other = await createUser(env(), 'other');
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      const account = await createAccount(env(), owner);
      const group = await groupOf(env(), owner, [account.id]);
      for (const url of [`/api/accounts/${account.id}/slots`, `/api/accounts-group/${group.id}/slots`]) {
        for (const method of ['PUT', 'DELETE'] as const) {
          const refused = await send(other, method, url, method === 'PUT' ? mornings : undefined);
          expect(refused.statusCode, `${method} ${url}`).toBe(404);
          expect(refused.json().message).toBe(t.server.notFound);
        }
        expect((await env().app.inject({ method: 'PUT', url, payload: mornings })).statusCode).toBe(401);
      }
      expect((await profile(owner, account.id)).slots.source).toBe('installation');

      expect((await send(admin, 'PUT', `/api/accounts/${account.id}/slots`, mornings)).statusCode).toBe(200);
      expect((await profile(owner, account.id)).slots).toEqual({ ...mornings, source: 'profile' });
    });

    it('keeps a row’s slots whole in the database, whatever writes them', async () => {
      const user = await createUser(env(), 'operator');
      const account = await createAccount(env(), user);
      const write = (sql: string) => env().db.sql(sql, [account.id]);
      for (const sql of [
        'UPDATE accounts SET posting_from = 540 WHERE id = $1',
        'UPDATE accounts SET posting_from = 600, posting_to = 540, posting_gap_minutes = 0, posting_days = 1 WHERE id = $1',
        'UPDATE accounts SET posting_from = 543, posting_to = 600, posting_gap_minutes = 0, posting_days = 1 WHERE id = $1',
        'UPDATE accounts SET posting_from = 540, posting_to = 600, posting_gap_minutes = 0, posting_days = 0 WHERE id = $1',
        'UPDATE accounts SET posting_from = 540, posting_to = 600, posting_gap_minutes = 0, posting_days = 128 WHERE id = $1',
      ]) {
        await expect(write(sql), sql).rejects.toMatchObject({ code: '23514' });
      }
    });
  },
  { postingSlots: installation },
);
