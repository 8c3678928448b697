import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../../server/messages';
import { createUser, describeEachDatabase } from '../server/helpers';
import { seedAccount, seedVideo } from '../server/stats-seed';

/**
 * Issue 42.5: the statistics export (`GET /api/stats/export.csv`) as LibreOffice Calc reads it.
 * The file the route answers is converted by `soffice --headless` to flat OpenDocument (.fods),
 * whose XML names each cell's type (`office:value-type`: float, date, string) and its value, so
 * the test reads what Calc made of every cell, not only the characters.
 *
 * The import is the one Calc's Text Import dialog makes for this file with Ukrainian settings:
 * the CSV filter's options (https://help.libreoffice.org/latest/en-US/text/shared/guide/csv_params.html)
 * `59` (`;` between cells), `34` (`"` around text), `76` (UTF-8), `1` (from the first line), no
 * column formats (each cell's type detected), `1058` (Ukrainian, whose dates are DD.MM.YYYY).
 */

const csvImport = 'Text - txt - csv (StarCalc):59,34,76,1,,1058';

interface SheetCell {
  /** `float`, `date`, `string`…; undefined for an empty cell. */
  type: string | undefined;
  /** The value Calc keeps for a number or a date; null for text. */
  value: string | null;
  /** What the cell shows, its lines joined by '\n'. */
  text: string;
  formula: boolean;
}

const entities: Record<string, string> = { apos: "'", quot: '"', amp: '&', lt: '<', gt: '>' };

/** A `<text:p>`'s characters: its spaces, tabs and line breaks as the elements that stand for them. */
function paragraphText(xml: string): string {
  return xml
    .replace(/<text:s text:c="(\d+)"\/>/g, (_, count: string) => ' '.repeat(Number(count)))
    .replace(/<text:s\/>/g, ' ')
    .replace(/<text:tab\/>/g, '\t')
    .replace(/<text:line-break\/>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(apos|quot|amp|lt|gt);/g, (_, name: string) => entities[name]!);
}

/** The first sheet's rows as Calc wrote them to the .fods, empty cells and rows at the ends left out. */
function sheetRows(fods: string): SheetCell[][] {
  const table = fods.slice(fods.indexOf('<table:table '), fods.indexOf('</table:table>'));
  const rows: SheetCell[][] = [];
  for (const [, row] of table.matchAll(/<table:table-row\b[^>]*>([\s\S]*?)<\/table:table-row>/g)) {
    const cells: SheetCell[] = [];
    for (const [, attributes, content] of row!.matchAll(/<table:table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)) {
      const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attributes!)?.[1];
      const cell: SheetCell = {
        type: attribute('office:value-type'),
        value: attribute('office:date-value') ?? attribute('office:value') ?? null,
        text: [...(content ?? '').matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)].map(([, paragraph]) => paragraphText(paragraph!)).join('\n'),
        formula: attribute('table:formula') !== undefined,
      };
      const repeated = Number(attribute('table:number-columns-repeated') ?? 1);
      for (let count = 0; count < Math.min(repeated, 64); count += 1) cells.push(cell);
    }
    while (cells.length > 0 && cells.at(-1)!.type === undefined && cells.at(-1)!.text === '') cells.pop();
    rows.push(cells);
  }
  while (rows.length > 0 && rows.at(-1)!.length === 0) rows.pop();
  return rows;
}

/** The export opened in Calc: `csv` converted by soffice to .fods, and read back. */
async function openedInCalc(csv: Buffer, dir: string): Promise<SheetCell[][]> {
  const file = path.join(dir, 'statystyka.csv');
  await fs.writeFile(file, csv);
  await promisify(execFile)(
    'soffice',
    [
      // A profile of its own: a first start writes one, and a user's running LibreOffice would take the call otherwise.
      `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
      '--headless',
      '--norestore',
      `--infilter=${csvImport}`,
      '--convert-to',
      'fods',
      '--outdir',
      dir,
      file,
    ],
    { timeout: 150_000 },
  );
  return sheetRows(await fs.readFile(path.join(dir, 'statystyka.fods'), 'utf8'));
}

const columns = t.statsScreen.columns;
const header = [
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
];

describeEachDatabase('the statistics export opened in LibreOffice Calc', (env) => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-spreadsheet-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('reads figures as numbers, days as dates, Cyrillic as written, and a title that would be a formula as text', async () => {
    const user = await createUser(env(), 'calc-operator');
    const accountId = await seedAccount(env().db, user.id, 'Ранок; кава');
    const titles = [
      'Ранкова пробіжка — їжак ґедзь',
      '=1+1',
      '=HYPERLINK("https://example.com";"тиць")',
      '+380 кава',
      '-5 хвилин',
      '@канал',
      'Привіт, "світ";\nдругий рядок',
      '007',
      '12.01.2026',
    ];
    const videoIds: number[] = [];
    for (const [index, title] of titles.entries()) {
      const { videoId } = await seedVideo(env().db, {
        userId: user.id,
        accountId,
        title,
        posts: [
          {
            platform: 'youtube',
            url: `https://youtu.be/v${index}`,
            points: [
              { at: '2026-01-09T08:00:00Z', views: 1000 + index, likes: 10, comments: 1 },
              { at: '2026-01-10T08:00:00Z', views: 12_345 + index, likes: 20, comments: 2 },
            ],
          },
        ],
      });
      videoIds.push(videoId);
    }
    const response = await env().app.inject({
      method: 'GET',
      url: '/api/stats/export.csv?from=2026-01-09&to=2026-01-10',
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);

    const [head, ...rows] = await openedInCalc(response.rawPayload, dir);
    expect(head!.map((cell) => [cell.type, cell.text])).toEqual(header.map((name) => ['string', name]));
    expect(rows).toHaveLength(titles.length * 2);
    expect(rows.flat().some((cell) => cell.formula)).toBe(false);

    for (const [index, title] of titles.entries()) {
      for (const [day, [date, views]] of [
        ['2026-01-09', 1000 + index],
        ['2026-01-10', 12_345 + index],
      ].entries()) {
        const row = rows[index * 2 + day]!;
        const [when, profile, platform, video, videoId, link, ...figures] = row;
        expect(when, title).toMatchObject({ type: 'date', value: date });
        expect(profile).toMatchObject({ type: 'string', text: t.accounts.optionTitle(accountId, 'Ранок; кава') });
        expect(platform).toMatchObject({ type: 'string', text: 'YouTube' });
        expect(videoId).toMatchObject({ type: 'float', value: String(videoIds[index]) });
        expect(link).toMatchObject({ type: 'string', text: `https://youtu.be/v${index}` });
        const gained = day === 0 ? 1000 + index : 12_345 - 1000;
        expect(figures.map((cell) => [cell.type, cell.value])).toEqual(
          [views, day === 0 ? 10 : 20, day === 0 ? 1 : 2, gained].map((figure) => ['float', String(figure)]),
        );

        // Digits alone are a number to Calc and a day's shape a date: the file says nothing more of a
        // cell than its characters, and a title is neutralised only where it would be a formula (docs/screens.md).
        if (title === '007') {
          expect(video).toMatchObject({ type: 'float', value: '7' });
        } else if (title === '12.01.2026') {
          expect(video).toMatchObject({ type: 'date', value: '2026-01-12' });
        } else if (/^[=+\-@]/.test(title)) {
          // Text, never a formula; and Calc shows the apostrophe that made it so (docs/screens.md).
          expect(video).toMatchObject({ type: 'string', text: `'${title}` });
        } else {
          expect(video).toMatchObject({ type: 'string', text: title });
        }
      }
    }
  });
});
