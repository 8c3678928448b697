import { Readable } from 'node:stream';
import type { PlatformName } from '../../../src/lib/contract';
import { t } from '../../messages';
import type { Database } from '../../db/connect';
import { byteOrderMark, csvRow, numberCell, textCell } from './csv';
import { gainedOverSpan, kyivMidnight, selectedPosts, spanFigures, type StatsDays, type StatsSelection } from './stats-range';

/**
 * Rows one statement reads, about 120 KB of CSV. Over 300 000 rows, batches of 5 000 left up to 49
 * MB more in the process on Postgres and 80 MB on PGlite, batches of 1 000 up to 23 and 54, most of
 * PGlite's its page cache (docs/benchmarks.md), for 2 statements per 1 000 rows.
 */
export const exportBatchRows = 1000;

const columns = t.statsScreen.columns;
const header = csvRow(
  [
    columns.day,
    columns.profile,
    columns.platform,
    columns.video,
    columns.videoId,
    columns.link,
    columns.views,
    columns.likes,
    columns.comments,
    columns.gained,
  ].map(textCell),
);

/** Whole days from `from` to `to`, both included. */
function dayCount({ from, to }: StatsDays): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
}

/**
 * One row per post and Kyiv day of the period, from the post's first figures on: its views,
 * likes and comments at the day's end and the views it gained that day. Read in batches of posts,
 * each batch found after the last post of the one before (keyset, by post id) by a statement of
 * its own: no cursor holds a connection, or PGlite's only one, for as long as a slow client
 * downloads, and each batch waits until the one before has been read (the generator runs only as
 * the stream is pulled). Figures that change during a download are read as they are when their
 * batch is.
 */
export async function* statsCsvChunks(
  db: Database,
  days: StatsDays,
  selection: StatsSelection,
  batchRows = exportBatchRows,
): AsyncGenerator<string> {
  yield byteOrderMark + header;
  const postsPerBatch = Math.max(1, Math.floor(batchRows / dayCount(days)));
  let after = 0;
  for (;;) {
    const values: unknown[] = [after];
    const where = selectedPosts(selection, values);
    const { rows: batch } = await db.sql(
      `SELECT p.id FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
        WHERE p.id > $1 AND ${where} ORDER BY p.id LIMIT ${postsPerBatch}`,
      values,
    );
    if (batch.length === 0) return;
    const ids = batch.map((row) => row.id as number);
    const { rows } = await db.sql(
      `SELECT p.id, to_char(days.day, 'DD.MM.YYYY') AS day, p.platform, p.account_id, accounts.comments AS account_comments,
              requests.title, p.video_id, p.url, last.views, last.likes, last.comments, ${gainedOverSpan('views')} AS gained
         FROM video_posts AS p
         JOIN videos ON videos.id = p.video_id
         JOIN creation_requests AS requests ON requests.id = videos.request_id
         LEFT JOIN accounts ON accounts.id = p.account_id
        CROSS JOIN (SELECT moment::date AS day FROM generate_series($2::date::timestamp, $3::date::timestamp, interval '1 day') AS moment) AS days
         ${spanFigures('p.id', kyivMidnight('days.day'), kyivMidnight('days.day + 1'))}
        WHERE p.id = ANY($1::integer[])
        ORDER BY p.id, days.day`,
      [ids, days.from, days.to],
    );
    let chunk = '';
    for (const row of rows) {
      chunk += csvRow([
        textCell(row.day),
        textCell(row.account_id === null ? t.stats.deletedProfile : t.accounts.optionTitle(row.account_id, row.account_comments)),
        textCell(t.platform.names[row.platform as PlatformName]),
        textCell(row.title ?? ''),
        numberCell(row.video_id),
        textCell(row.url ?? ''),
        numberCell(row.views),
        numberCell(row.likes),
        numberCell(row.comments),
        numberCell(row.gained),
      ]);
    }
    if (chunk) yield chunk;
    if (batch.length < postsPerBatch) return;
    after = ids[ids.length - 1]!;
  }
}

/**
 * The CSV as a byte stream that reads a batch only when the one before has gone out: it holds at
 * most one batch (`highWaterMark` 1 byte makes it ask for the next chunk only once its buffer is
 * empty), whatever the number of rows, and a client that stops reading stops the reads.
 */
export function statsCsv(db: Database, days: StatsDays, selection: StatsSelection, batchRows = exportBatchRows): Readable {
  return Readable.from(statsCsvChunks(db, days, selection, batchRows), { objectMode: false, highWaterMark: 1 });
}
