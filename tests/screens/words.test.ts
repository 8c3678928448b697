import { describe, expect, it } from 'vitest';
// The whole catalog: the SPA's and the messages only the server sends (server/messages.ts).
import { t } from '../../server/messages';
import { wordProblems } from '../fixtures/visible-words';
import { fileSize } from '../../src/lib/i18n/words';

/** Counts that reach every plural form Ukrainian has: many (0, 5, 11, 25, 100), one (1, 21), few (2, 3, 22, 44). */
const counts = [0, 1, 2, 3, 5, 11, 21, 22, 25, 44, 100];

/**
 * Every text of the catalog by its path; a message made from figures is made once per count, the
 * count in each of its arguments (or, where it takes a list, a list of it; where it takes words, the
 * count as a word).
 */
function catalogTexts(node: unknown, path: string): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (typeof node === 'function') {
    return counts.map((count) => {
      const message = node as (...args: unknown[]) => string;
      // Figures by name (a platform's limits) are each the count too.
      const figures = new Proxy({}, { get: () => count });
      const made = [count, [String(count)], String(count), figures].map((argument) => {
        try {
          // A message that has nothing to say for these arguments (null) says nothing.
          const text = message(...Array(message.length).fill(argument)) ?? '';
          // One that reads a figure by name from a count was not made from it.
          return text.includes('undefined') ? undefined : text;
        } catch {
          return undefined;
        }
      });
      const at = made.findIndex((each) => each !== undefined);
      if (at < 0) throw new Error(`${path} cannot be made from a count, a list, a word or figures by name`);
      return [`${path}(${['', '[]', '""', '{}'][at]}${count})`, made[at]!];
    });
  }
  // A link's address is no word of the screen.
  if (node && typeof node === 'object')
    return Object.entries(node).flatMap(([key, value]) => (key === 'href' ? [] : catalogTexts(value, `${path}.${key}`)));
  return [];
}

describe('the words a Ukrainian reader meets', () => {
  it('finds the misspellings of SPEC drafts, a count its noun disagrees with, English words and UUIDs', () => {
    const old = [
      'Створити группу',
      'Группа створено',
      'Кілкість відео',
      "Доступи TikTiok обов'язкові",
      'Профіля',
      '3 публікацій',
      '44 переглядів',
      'Сповіщення: 1 непрочитаних',
      'Admin',
      'Europe/Kiev, 24 години',
      'client_id',
      'ipv4',
      'Sandbox ig_walker',
      'Публікація ea4baf36-5c1d-4e8f-9a0b-1c2d3e4f5a6b',
      'Помилка при видалені',
      'Авторизований',
      'Обрано: 0.2 МБ',
      'Файл "clip.mp4" не прийнято',
    ];
    expect(old.filter((text) => wordProblems(text).length === 0)).toEqual([]);
    expect(wordProblems('Дозволити Stitch (зшивання), 2 300 символів, 21 публікацію, YouTube Shorts, IPv6, TIKTOK')).toEqual([]);
    expect(wordProblems('Файл «clip.mp4» не прийнято, 0,2 МБ', ['clip.mp4'])).toEqual([]);
    // A count ends its line: the next line's first word is no noun of it.
    expect(wordProblems('25.11.2026 10:14\nПублікація в TikTok не вдалася')).toEqual([]);
    // The operator's own words (a login, a file name) are theirs, not the product's.
    expect(wordProblems('Користувач: operator, clip.mp4', ['operator', 'clip.mp4'])).toEqual([]);
  });

  it('writes a file size with a decimal comma', () => {
    expect([fileSize(0.2 * 1024 ** 2), fileSize(1023.96 * 1024 ** 2), fileSize(1.25 * 1024 ** 3)]).toEqual([
      '0,2 МБ',
      '1\u00a0024,0 МБ',
      '1,25 ГБ',
    ]);
  });

  it('carries a refusal on after a colon in lower case, names and abbreviations kept', () => {
    expect([
      t.upload.rejected('clip.mp4', 'Файл повинен бути відео'),
      t.upload.rejected('big.mp4', 'Файл завеликий: максимум 500 МБ'),
      t.createVideo.sourceFailed('a.mp4', 'TikTok: не відповідає'),
      t.upload.rejected('b.mp4', 'МБ'),
    ]).toEqual([
      'Файл «clip.mp4» не прийнято: файл повинен бути відео',
      'Файл «big.mp4» не прийнято: файл завеликий: максимум 500 МБ',
      'Файл «a.mp4» не завантажено: TikTok: не відповідає',
      'Файл «b.mp4» не прийнято: МБ',
    ]);
  });

  it("says a set's posts by state only when not every post went out (issue 40.2)", () => {
    const posts = (published: number, failed = 0, held = 0, scheduled = 0) => ({ published, failed, held, scheduled, cancelled: 0 });
    const said = [posts(1, 1), posts(0, 0, 2, 3), posts(21, 0, 0, 1), posts(2), posts(0)].map((each) => t.postBadges.setCounts(each));
    expect(said).toEqual([
      'Частково: вийшло 1 з 2, з помилкою — 1',
      'Вийшло 0 з 5, утримано — 2, заплановано — 3',
      'Частково: вийшло 21 з 22, заплановано — 1',
      null,
      null,
    ]);
    expect(said.flatMap((text) => (text ? wordProblems(text) : []))).toEqual([]);
  });

  it('has none of them anywhere in the catalog, with every count a message can be made with', () => {
    const problems = catalogTexts(t, 't').flatMap(([path, text]) =>
      wordProblems(text).map((problem) => `${path}: ${problem} in «${text}»`),
    );
    expect(problems).toEqual([]);
  });
});
