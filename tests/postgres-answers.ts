import pg from 'pg';

/** Whether the Postgres at `url` takes a connection and answers a query within 3 s; false without a url. */
export async function postgresAnswers(url: string | null | undefined): Promise<boolean> {
  if (!url) return false;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  const answered = await client
    .connect()
    .then(() => client.query('SELECT 1'))
    .then(
      () => true,
      () => false,
    );
  await client.end().catch(() => undefined);
  return answered;
}
