import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory; keep looking.
    }
  }
  return undefined;
}

function shippedByNpm(packageName: string): string | undefined {
  try {
    // These packages throw on platforms they have no binary for; that only means "no fallback".
    return (createRequire(import.meta.url)(packageName) as { path: string }).path;
  } catch {
    return undefined;
  }
}

/**
 * FFMPEG_PATH / FFPROBE_PATH first, then the system's binaries (usually newer), then the static
 * builds shipped by `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe`, so a fresh
 * machine renders without installing anything.
 */
export function resolveMediaTools(
  configured: { ffmpegPath?: string; ffprobePath?: string },
  env: NodeJS.ProcessEnv = process.env,
): MediaTools {
  const ffmpeg = configured.ffmpegPath ?? onPath('ffmpeg', env) ?? shippedByNpm('@ffmpeg-installer/ffmpeg');
  const ffprobe = configured.ffprobePath ?? onPath('ffprobe', env) ?? shippedByNpm('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) {
    throw new Error('ffmpeg/ffprobe not found: set FFMPEG_PATH and FFPROBE_PATH, or install ffmpeg');
  }
  return { ffmpeg, ffprobe };
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** Enough of stderr to explain a failure, without keeping a long encode's whole log in memory. */
const stderrTail = 4000;

/** Runs a binary with an argument array (never a shell) and kills it when `timeoutMs` passes. */
export function runTool(binary: string, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-stderrTail);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ToolError(`${path.basename(binary)}: ${error.message}`, stderr, false));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ stdout, stderr });
      const why = timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exit ${code ?? signal}`;
      reject(new ToolError(`${path.basename(binary)} ${why}: ${lastLine(stderr)}`, stderr, timedOut));
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
