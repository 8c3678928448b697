// The embedded database's own thread: PGlite's WebAssembly runs here, so a long query never holds
// up the server's event loop. Plain JavaScript because worker threads load without tsx's loader.
// Messages come from server/db/connect.ts, one at a time: it serialises calls and transactions.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';

// Drizzle's PGlite driver maps date-like columns from their text itself (and asks for it with
// identity parsers, which cannot cross threads); `rawDates` asks for the same here.
const keepText = (value) => value;
const rawDateParsers = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((type) => [type, keepText]),
);

const db = await PGlite.create({
  dataDir: workerData.dataDir,
  loadDataDir: workerData.loadDataDir ? new Blob([await readFile(workerData.loadDataDir)]) : undefined,
});

function plainError(error) {
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value !== 'object' && typeof value !== 'function') fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message };
}

const plainResult = ({ rows, affectedRows, fields }) => ({ rows, affectedRows, fields });

parentPort.on('message', async ({ id, op, text, params, rowMode, rawDates }) => {
  try {
    let result;
    if (op === 'query') {
      result = plainResult(await db.query(text, params, { rowMode, parsers: rawDates ? rawDateParsers : undefined }));
    } else if (op === 'exec') {
      result = (await db.exec(text)).map(plainResult);
    } else if (op === 'close') {
      await db.close();
      result = null;
    }
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: plainError(error) });
  }
});
parentPort.postMessage({ ready: true });
