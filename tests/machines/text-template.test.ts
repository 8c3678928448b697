import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillTemplate, templateDate, worstFill, type TemplateValues } from '../../src/lib/text-template';
import { ownWords, platformText, postSeed, postWords, textCounts, textProblems, wordsOf } from '../../src/lib/post-texts';
import * as t from '../../src/lib/i18n';

const values: TemplateValues = { profile: 'Кава Львів', n: 3, date: '05.12.2026' };
const length = (text: string) => text.length;

describe('a text template filled per post (src/lib/text-template.ts)', () => {
  it('fills the variables and leaves other braces as typed', () => {
    expect(fillTemplate('{profile}: відео {n} від {date}', values, 'seed')).toBe('Кава Львів: відео 3 від 05.12.2026');
    expect(fillTemplate('{}{слово} {n', values, 'seed')).toBe('{}{слово} {n');
    expect(fillTemplate('{{n}}', values, 'seed')).toBe('{3}');
  });

  it('picks one choice of each spintax, nested ones inside their choice, the same for the same seed', () => {
    const template = '{Привіт|Вітаю} {світ|{друзі|колеги} {n}}!';
    const filled = fillTemplate(template, values, '12:youtube:4');
    expect(filled).toMatch(/^(Привіт|Вітаю) (світ|(друзі|колеги) 3)!$/);
    expect(fillTemplate(template, values, '12:youtube:4')).toBe(filled);
  });

  it('gives every choice to some post: the seeds spread over them', () => {
    const seen = new Set(Array.from({ length: 60 }, (_, video) => fillTemplate('{а|б|в}', values, postSeed(video, 'tiktok', 1))));
    expect(seen).toEqual(new Set(['а', 'б', 'в']));
  });

  it('any fill is one of the template’s, never longer than its worst case', () => {
    const choice = fc.stringMatching(/^[a-zа-я ]{0,6}$/);
    const spin = fc.array(choice, { minLength: 2, maxLength: 4 }).map((options) => `{${options.join('|')}}`);
    const part = fc.oneof(choice, spin, fc.constantFrom('{n}', '{profile}', '{date}'));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), fc.string(), (parts, seed) => {
        const template = parts.join('');
        const filled = fillTemplate(template, values, seed);
        expect(fillTemplate(template, values, seed)).toBe(filled);
        expect(filled.length).toBeLessThanOrEqual(worstFill(template, values, length).length);
        expect(filled).not.toMatch(/\{(n|profile|date)\}/);
      }),
    );
  });

  it('takes the heaviest choice by the weight asked', () => {
    expect(worstFill('{коротко|довгий текст} {#а #б|словечко}', values, length)).toBe('довгий текст словечко');
    expect(worstFill('{коротко|довгий текст} {#а #б|словечко}', values, (text) => text.split('#').length)).toBe('коротко #а #б');
  });

  it("writes a post's Kyiv date as dd.mm.yyyy", () => {
    // 22:30 UTC on 31 December is already the new year in Kyiv.
    expect(templateDate(Date.UTC(2026, 11, 31, 22, 30))).toBe('01.01.2027');
  });
});

describe("a post's words per platform (src/lib/post-texts.ts)", () => {
  const common = { title: 'Ранок {n}', description: 'Опис', tags: ['біг'] };

  it('takes a platform’s own fields over the set’s; a blank title or no tags are none', () => {
    const texts = { youtube: { title: ' ', description: '', tags: [] }, tiktok: { title: 'ТТ' } };
    expect(platformText(common, texts, 'youtube')).toEqual({ title: 'Ранок {n}', description: '', tags: ['біг'] });
    expect(platformText(common, texts, 'tiktok')).toEqual({ ...common, title: 'ТТ' });
    expect(platformText(common, undefined, 'instagram')).toEqual(common);
  });

  it('fills tags as tags are kept and keeps only what differs from the set', () => {
    const words = postWords({ ...common, tags: ['{profile}', 'біг'] }, values, 'seed');
    expect(words).toEqual({ title: 'Ранок 3', description: 'Опис', tags: ['кавальвів', 'біг'] });
    expect(ownWords(words, common)).toEqual({ title: 'Ранок 3', description: null, tags: ['кавальвів', 'біг'] });
    expect(wordsOf(ownWords(words, common), common)).toEqual(words);
  });

  const worst = { profiles: ['#1 Кава'], numbers: [1, 2, 12], videoId: 1234 };

  it("counts a caption against what the publish key's line leaves of it", () => {
    const [caption] = textCounts('tiktok', { title: 'a', description: 'b', tags: ['c'] }, worst);
    expect(caption).toMatchObject({ used: 'a\n\nb\n\n#c'.length, limit: 2200 - 'video-1234-tiktok'.length - 2 });
  });

  it("refuses the template's worst case: the longest choice, name and number", () => {
    const title = `${'я'.repeat(90)}{а|${'б'.repeat(5)}} {n}`;
    // 90 + 5 + a space + '12' = 98: fits; the profile's 7 more do not.
    expect(textProblems({ ...common, title }, undefined, ['youtube'], worst)).toEqual([]);
    const problems = textProblems({ ...common, title: `${title}{profile}` }, undefined, ['youtube', 'tiktok'], worst);
    expect(problems).toEqual([{ platform: 'youtube', field: 'title', message: t.postingRules.titleTooLong(105, 100) }]);
  });

  it("counts Instagram's hashtags over the caption, the spintax's heaviest choice included", () => {
    const description = `${Array.from({ length: 28 }, (_, index) => `#t${index}`).join(' ')} {#x #y|без}`;
    const problems = textProblems(common, { instagram: { description } }, ['instagram', 'youtube'], worst);
    expect(problems).toEqual([{ platform: 'instagram', field: 'tags', message: t.postingRules.tooManyHashtags(31, 30) }]);
  });
});
