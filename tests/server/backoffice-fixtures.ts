import { expect } from 'vitest';
import type { AccountDetail, AccountFields } from '../../src/lib/contract';
import { emptyAccountForm } from '../../src/lib/schemas';
import type { createUser, TestEnv } from './helpers';

export type TestUser = Awaited<ReturnType<typeof createUser>>;

/** The profile form with every platform off and a proxy: valid as it is. */
export const emptyAccount: AccountFields = { ...emptyAccountForm, proxy: '127.0.0.1:8080' };

export async function createAccount(env: TestEnv, user: TestUser, fields: Partial<AccountFields> = {}): Promise<AccountDetail> {
  const response = await env.app.inject({
    method: 'POST',
    url: '/api/accounts',
    headers: user.headers,
    payload: { ...emptyAccount, ...fields },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A published video of `userId`, as the media and publishing work will store them. */
export async function insertVideo(env: TestEnv, userId: number, accountId: number | null): Promise<number> {
  const { rows } = await env.db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, count_video, source_key) VALUES (gen_random_uuid(), $1, 1, 'source') RETURNING id`,
    [userId],
  );
  const video = await env.db.sql(
    `INSERT INTO videos (request_id, user_id, account_id, position, status, url_youtube)
     VALUES ($1, $2, $3, 0, 'success', 'https://youtu.be/x') RETURNING id`,
    [rows[0].id, userId, accountId],
  );
  return video.rows[0].id as number;
}
