import ExcelJS from 'exceljs';
import { t } from '../../messages';
import { HttpError } from '../../http-error';
import { byteOrderMark, csvRow, textCell } from '../statistics/csv';

/**
 * A plan file (issue 43.3) as rows of named cells: CSV as uk-UA Excel saves it (`;`, UTF-8 with a
 * byte order mark) or with commas, or an .xlsx's first sheet. Columns are found by their header,
 * the template's Ukrainian words or the keys scripts write; a row's line is its line in the
 * spreadsheet, the header being line 1, so a reason points where the operator looks.
 */

export const planColumns = ['videoId', 'idUpload', 'profile', 'platform', 'date', 'title', 'description', 'tags'] as const;
export type PlanColumn = (typeof planColumns)[number];

/** A file holds at most this many posts: an agency's month is a few thousand, and the preview is kept in one row. */
export const maxPlanRows = 20_000;

export interface PlanLine {
  line: number;
  cells: Record<PlanColumn, string>;
}

/**
 * What a spreadsheet takes for a formula, guarded by the export with a leading apostrophe
 * (statistics/csv.ts textCell): the apostrophe is the guard's, not the operator's text.
 */
const guardedFormula = /^'[=+\-@\t\r]/;
const unguarded = (cell: string) => (guardedFormula.test(cell) ? cell.slice(1) : cell);

const headerKey = (cell: string) => cell.trim().toLocaleLowerCase('uk');
const columnOf = new Map<string, PlanColumn>(
  planColumns.flatMap((column) => [
    [headerKey(column), column],
    [headerKey(t.plans.columns[column]), column],
  ]),
);

/** The separator of a CSV: the one of `;` and `,` its header line holds more of, outside quotes. */
function separatorOf(text: string): string {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ';') semicolons += 1;
    else if (!quoted && char === ',') commas += 1;
  }
  return commas > semicolons ? ',' : ';';
}

/** RFC 4180 records: quoted cells may hold separators, quotes doubled and line breaks; CRLF or LF ends a record. */
export function csvRecords(text: string): string[][] {
  const body = text.startsWith(byteOrderMark) ? text.slice(1) : text;
  const separator = separatorOf(body);
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (quoted) {
      if (char !== '"') cell += char;
      else if (body[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else quoted = false;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === separator) {
      record.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[index + 1] === '\n') index += 1;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** An .xlsx cell as text; a date cell (ExcelJS gives its wall time as UTC) in the import's `dd.mm.yyyy HH:mm`. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    return `${twoDigits(value.getUTCDate())}.${twoDigits(value.getUTCMonth() + 1)}.${value.getUTCFullYear()} ${twoDigits(value.getUTCHours())}:${twoDigits(value.getUTCMinutes())}`;
  }
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  if ('text' in value) return String(value.text);
  return '';
}

async function xlsxRecords(bytes: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  if (!sheet) return [];
  const records: string[][] = [];
  // Rows by their number: an empty row in the sheet keeps its place, so lines match what Excel shows.
  for (let number = 1; number <= sheet.rowCount; number += 1) {
    const row = sheet.getRow(number);
    const cells: string[] = [];
    for (let column = 1; column <= row.cellCount; column += 1) cells.push(cellText(row.getCell(column).value));
    records.push(cells);
  }
  return records;
}

/** An .xlsx is a zip: it starts with a local file header. */
const isZip = (bytes: Buffer) => bytes.length > 4 && bytes.readUInt32LE(0) === 0x04034b50;

/** A 20 000-row plan's workbook unpacks to about 10 MB of XML; far more is a zip bomb, not a plan. */
export const maxWorkbookUnpackedBytes = 64 * 1024 * 1024;

/**
 * What a zip's central directory says its entries unpack to, or null when it cannot be read or
 * uses ZIP64 (no plan needs 4 GB). ExcelJS inflates every entry in memory before reading a row, so
 * this is asked first. The sizes are the file's own claim: a file lying about them is inflated
 * anyway, and the 16 MB upload cap is what bounds that.
 * (APPNOTE.TXT 4.3.16 end of central directory record, 4.3.12 central directory header.)
 */
export function zipUnpackedBytes(bytes: Buffer): number | null {
  const endSignature = 0x06054b50;
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (bytes.readUInt32LE(at) === endSignature) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const entries = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let entry = 0; entry < entries; entry += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return null;
    const unpacked = bytes.readUInt32LE(at + 24);
    if (unpacked === 0xffffffff) return null;
    total += unpacked;
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return total;
}

/**
 * The file's posts, one per non-empty row under the header, each cell by its column ('' when the
 * file has no such column). Refused (400) when unreadable, without the columns a row needs, or too long.
 */
export async function readPlanFile(bytes: Buffer): Promise<PlanLine[]> {
  let records: string[][];
  if (isZip(bytes)) {
    const unpacked = zipUnpackedBytes(bytes);
    if (unpacked === null) throw new HttpError(400, t.plans.fileUnreadable);
    if (unpacked > maxWorkbookUnpackedBytes) throw new HttpError(413, t.plans.workbookTooLarge(maxWorkbookUnpackedBytes / 1024 / 1024));
  }
  try {
    records = isZip(bytes) ? await xlsxRecords(bytes) : csvRecords(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new HttpError(400, t.plans.fileUnreadable);
  }
  const [header = [], ...rows] = records;
  const columns = header.map((cell) => columnOf.get(headerKey(cell)) ?? null);
  const needed: PlanColumn[] = ['profile', 'platform'];
  const missing = needed.filter((column) => !columns.includes(column));
  if (!columns.includes('videoId') && !columns.includes('idUpload')) missing.unshift('videoId');
  if (missing.length > 0) throw new HttpError(400, t.plans.headerMissing(missing.map((column) => t.plans.columns[column]).join(', ')));

  const lines: PlanLine[] = [];
  for (const [index, record] of rows.entries()) {
    if (record.every((cell) => cell.trim() === '')) continue;
    if (lines.length === maxPlanRows) throw new HttpError(400, t.plans.tooManyRows(maxPlanRows));
    const cells = Object.fromEntries(planColumns.map((column) => [column, ''])) as Record<PlanColumn, string>;
    for (const [position, column] of columns.entries()) {
      if (column) cells[column] = unguarded((record[position] ?? '').trim());
    }
    lines.push({ line: index + 2, cells });
  }
  return lines;
}

/** The import's header, in the template's words. */
export const planHeader = () => csvRow(planColumns.map((column) => textCell(t.plans.columns[column])));

/** A plan as uk-UA Excel opens it: byte order mark, the template's header, a row per post. */
export function planCsv(rows: Record<PlanColumn, string>[]): string {
  return byteOrderMark + planHeader() + rows.map((row) => csvRow(planColumns.map((column) => textCell(row[column])))).join('');
}
