import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildAppOn, describeEachDatabase, sandboxControl } from './helpers';

describeEachDatabase('security headers', (env) => {
  let distDir: string;
  let app: Awaited<ReturnType<typeof buildAppOn>>;

  beforeAll(async () => {
    // A stand-in for the built SPA: the headers come from the server, whatever the files are.
    distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-dist-'));
    await fs.mkdir(path.join(distDir, 'assets'));
    await fs.writeFile(path.join(distDir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
    await fs.writeFile(path.join(distDir, 'assets', 'app.js'), 'export {};');
    app = await buildAppOn(env(), { distDir });
  });
  afterAll(async () => {
    await app?.close();
    await fs.rm(distDir, { recursive: true, force: true });
  });

  it('sends a strict CSP, nosniff, no framing and a referrer policy on the SPA, its assets, the API and its errors', async () => {
    for (const url of ['/', '/accounts/list', '/assets/app.js', '/api/auth/me', '/api/nothing-here', '/healthz']) {
      const response = await app.inject({ url });
      const csp = response.headers['content-security-policy'] as string;
      expect(csp, url).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('takes sandbox controls only as JSON, so another site cannot post them from a form', async () => {
    const form = await sandboxControl(app, {
      method: 'POST',
      url: '/sandbox/_faults',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'platform=youtube&step=init&kind=quota',
    });
    expect(form.statusCode).toBe(415);
    const plain = await sandboxControl(app, {
      method: 'POST',
      url: '/sandbox/_revoke',
      headers: { 'content-type': 'text/plain' },
      payload: '{"platform":"youtube","account":"a"}',
    });
    expect(plain.statusCode).toBe(415);
    const json = await sandboxControl(app, {
      method: 'POST',
      url: '/sandbox/_faults',
      payload: { platform: 'youtube', step: 'init', kind: 'quota' },
    });
    expect(json.statusCode).toBe(201);
  });
});
