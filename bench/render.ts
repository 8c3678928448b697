/**
 * Render benchmark through the real path: `npm start` in its own process (tests/e2e/harness.ts:
 * PGlite in a temporary DATA_DIR, the queue worker inside), 5 background images are
 * uploaded, then a 15-second 1280×720 clip is uploaded with countVideo=5 and timed from the
 * upload's first byte until the request is `success` (queue pickup, probe, render, posters,
 * storage). Two baselines, with the same binary, preset and output (1080×1920 H.264 + AAC + poster):
 * - naive: 5 runs of the command one writes by hand (the image looped as an input and scaled on
 *   every frame, the clip decoded again per variant), each followed by a second run for its poster;
 * - the product's own graph run once per variant, which isolates what sharing one process saves.
 * Three rounds, sides interleaved.
 *
 *   npm run bench:render
 *   RENDER_PRESET=veryfast FFMPEG_PATH=… FFPROBE_PATH=… npm run bench:render
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { noLimits, probeVideo } from '../server/media/probe';
import { renderVariants } from '../server/media/render';
import { resolveMediaTools, runTool } from '../server/media/tools';
import { makeSourceClip } from './source-clip';
import { adminLogin, adminPassword, startServer } from '../tests/e2e/harness';

const variants = 5;
const clipSeconds = 15;
const rounds = 3;

const config = loadConfig();
const tools = resolveMediaTools(config);
const timeoutMs = 30 * 60 * 1000;

async function api(base: string, token: string | null, route: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${route}`, {
    ...init,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

const fileBlob = async (file: string, type: string) => new Blob([await fs.readFile(file)], { type });

/** Upload to done: the request's wall time through the API, polled every 100 ms. */
async function renderThroughApi(base: string, token: string, clip: string, photoIds: number[], count = variants): Promise<number> {
  const started = performance.now();
  const form = new FormData();
  form.append('countVideo', String(count));
  form.append('photoIds', JSON.stringify(photoIds));
  form.append('file', await fileBlob(clip, 'video/mp4'), 'clip.mp4');
  const { idUpload } = await api(base, token, '/api/create-video/create', { method: 'POST', body: form });
  for (;;) {
    const detail = await api(base, token, `/api/create-video/request/${idUpload}`);
    if (detail.status === 'error') throw new Error(`render failed: ${detail.error}`);
    if (detail.status === 'success') {
      if (detail.video.some((video: { posterUrl: string | null }) => !video.posterUrl)) throw new Error('a variant has no poster');
      return (performance.now() - started) / 1000;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shorts-bench-render-'));
  const server = await startServer();
  try {
    const ffmpeg = (args: string[]) => runTool(tools.ffmpeg, ['-nostdin', '-v', 'error', '-y', ...args], timeoutMs);
    const clip = path.join(dir, 'clip.mp4');
    await makeSourceClip(tools, clip, clipSeconds);
    const backgrounds: string[] = [];
    for (let index = 0; index < variants; index++) {
      const file = path.join(dir, `background-${index}.jpg`);
      await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=s=1080x1920,hue=h=${index * 72}`, '-frames:v', '1', file]);
      backgrounds.push(file);
    }

    const { accessToken } = await api(server.baseUrl, null, '/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: adminLogin, password: adminPassword }),
    });
    const images = new FormData();
    for (const [index, file] of backgrounds.entries())
      images.append('files', await fileBlob(file, 'image/jpeg'), `background-${index}.jpg`);
    const uploaded: { data: { id: number }[] } = await api(server.baseUrl, accessToken, '/api/photo-bg', { method: 'POST', body: images });
    const photoIds = uploaded.data.map((photo) => photo.id);

    const info = await probeVideo(tools, clip, noLimits);
    const naive = async () => {
      const started = performance.now();
      for (const [index, background] of backgrounds.entries()) {
        const video = path.join(dir, `naive-${index}.mp4`);
        await ffmpeg([
          ...['-loop', '1', '-framerate', String(info.fps), '-i', background, '-i', clip],
          '-filter_complex',
          '[0:v]scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920[bg];[1:v]scale=1080:-2[fg];' +
            '[bg][fg]overlay=(W-w)/2:(H-h)/2:shortest=1',
          ...['-c:v', 'libx264', '-preset', config.renderPreset, '-crf', '23', '-pix_fmt', 'yuv420p'],
          ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', video],
        ]);
        await ffmpeg(['-ss', '1', '-i', video, '-frames:v', '1', path.join(dir, `naive-${index}.jpg`)]);
      }
      return (performance.now() - started) / 1000;
    };
    const graphPerVariant = async () => {
      const started = performance.now();
      for (const [index, background] of backgrounds.entries()) {
        const target = {
          background,
          video: path.join(dir, `graph-${index}.mp4`),
          poster: path.join(dir, `graph-${index}.jpg`),
          thumbnail: path.join(dir, `graph-${index}-small.jpg`),
        };
        await renderVariants({ tools, source: clip, info, targets: [target], preset: config.renderPreset, timeoutMs });
      }
      return (performance.now() - started) / 1000;
    };

    console.log(`ffmpeg: ${tools.ffmpeg}`);
    console.log(
      `${variants} variants of a ${clipSeconds} s 1280×720 clip → 1080×1920 H.264 (preset ${config.renderPreset}) + AAC + poster, ` +
        `${variants} background images, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
    );
    // Untimed: the server's first render loads the render job's code (tsx compiles it on first use)
    // while pg-boss runs its start-up maintenance, which cost the first timed round 1 to 2 s.
    await renderThroughApi(server.baseUrl, accessToken, clip, photoIds.slice(0, 1), 1);
    const throughApi: number[] = [];
    const naiveRuns: number[] = [];
    const graphRuns: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const sides = [
        async () => throughApi.push(await renderThroughApi(server.baseUrl, accessToken, clip, photoIds)),
        async () => naiveRuns.push(await naive()),
        async () => graphRuns.push(await graphPerVariant()),
      ];
      // Interleaved: each round starts with a different side.
      for (let turn = 0; turn < sides.length; turn++) await sides[(round - 1 + turn) % sides.length]!();
      console.log(
        `round ${round}: through the API ${throughApi.at(-1)!.toFixed(1)} s   naive 5 runs ${naiveRuns.at(-1)!.toFixed(1)} s   ` +
          `product graph ×5 ${graphRuns.at(-1)!.toFixed(1)} s   API / naive ${(throughApi.at(-1)! / naiveRuns.at(-1)!).toFixed(2)}   ` +
          `API / graph ×5 ${(throughApi.at(-1)! / graphRuns.at(-1)!).toFixed(2)}   (load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
    console.log(
      `\nmedian: through the API ${median(throughApi).toFixed(1)} s, naive ${median(naiveRuns).toFixed(1)} s, ` +
        `product graph ×5 ${median(graphRuns).toFixed(1)} s; API / naive ${(median(throughApi) / median(naiveRuns)).toFixed(2)} (goal ≤ 0.70), ` +
        `API / graph ×5 ${(median(throughApi) / median(graphRuns)).toFixed(2)}`,
    );
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

await main();
