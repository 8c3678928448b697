import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { platforms } from '../../src/lib/platforms';

/**
 * Issue 41.6: a platform added after SPEC lives in its own folders, and outside them is named by a
 * handful of shared files (the registries, the catalog, the configuration, the tables' columns, the
 * sandbox's token and cap tables), at most 12. Comments and Meta's host names (graph.facebook.com,
 * which Instagram's Graph API shares) are not a naming; code is.
 */
const sharedFilesAllowed = 12;

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|css|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

const codeOf = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/[a-z.-]*\.(com|net)\b/gi, '');

const ownPlaces = (id: string) => [
  `server/platforms/${id}/`,
  `server/sandbox/${id}/`,
  `src/lib/platforms/${id}.ts`,
  'server/db/migrations/',
];

describe('A platform added after SPEC stays in its own folders', () => {
  const files = [...sourceFiles('server'), ...sourceFiles('src')].map((file) => ({
    file,
    code: codeOf(fs.readFileSync(path.join(root, file), 'utf8')),
  }));
  const added = platforms.filter((platform) => !platform.inSpec);

  it('has at least one such platform to measure', () => {
    expect(added.length).toBeGreaterThan(0);
  });

  for (const platform of added) {
    it(`${platform.id}: named in at most ${sharedFilesAllowed} files outside its folders`, () => {
      const own = ownPlaces(platform.id);
      const naming = files
        .filter(({ file }) => !own.some((place) => file.startsWith(place)))
        .filter(({ code }) => new RegExp(platform.id, 'i').test(code))
        .map(({ file }) => file);
      expect(naming.length, naming.join('\n')).toBeLessThanOrEqual(sharedFilesAllowed);
      // Its own folders hold it: the connector and the sandbox are there, not spread elsewhere.
      expect(fs.existsSync(path.join(root, `server/platforms/${platform.id}/index.ts`))).toBe(true);
      expect(fs.existsSync(path.join(root, `server/sandbox/${platform.id}`))).toBe(true);
    });
  }
});
