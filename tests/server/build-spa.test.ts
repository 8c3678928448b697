import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildSpaIfStale } from '../../server/build-spa';

let root: string;

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function tinyApp(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-build-spa-'));
  await fs.mkdir(path.join(folder, 'src'));
  await fs.writeFile(path.join(folder, 'src', 'main.ts'), "document.body.textContent = 'Привіт';\n");
  await fs.writeFile(
    path.join(folder, 'index.html'),
    '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n',
  );
  return folder;
}

it('builds once when three processes start at once on a folder with no build, and not again while it is fresh', async () => {
  root = await tinyApp();
  const said: string[] = [];
  const log = (message: string) => said.push(message);
  const dists = await Promise.all([buildSpaIfStale(root, log), buildSpaIfStale(root, log), buildSpaIfStale(root, log)]);
  expect(dists).toEqual([path.join(root, 'dist'), path.join(root, 'dist'), path.join(root, 'dist')]);
  expect(said).toEqual(['building the web app (vite build)…']);
  const page = await fs.readFile(path.join(root, 'dist', 'index.html'), 'utf8');
  const script = page.match(/src="\/(assets\/[^"]+\.js)"/)![1]!;
  expect(await fs.readFile(path.join(root, 'dist', script), 'utf8')).toContain('Привіт');
  await expect(fs.stat(path.join(root, 'dist.build-lock'))).rejects.toThrow();

  await buildSpaIfStale(root, log);
  expect(said).toHaveLength(1);
});
