import { spawn, spawnSync } from 'node:child_process';
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

/**
 * A write that failed for want of room reaches ffmpeg as an errno, which it prints only as its
 * text ('av_interleaved_write_frame(): No space left on device'); as C's strerror words them.
 */
const fullDiskWords: [RegExp, string][] = [
  [/No space left on device/, 'ENOSPC'],
  [/Dis[ck] quota exceeded/, 'EDQUOT'],
];

export class ToolError extends Error {
  /** ENOSPC or EDQUOT when the tool said a write failed so, as fs's errors carry it (see isDiskFull). */
  readonly code: string | undefined;

  constructor(
    message: string,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.code = fullDiskWords.find(([words]) => words.test(stderr))?.[1];
  }
}

/** Enough of stderr to explain a failure, without keeping a long encode's whole log in memory. */
const stderrTail = 4000;

/**
 * The command that makes the kernel kill a child when this process dies, even by SIGKILL or the
 * OOM killer, so no ffmpeg outlives its worker: util-linux's `setpriv --pdeathsig` on Linux.
 * Without it (another system, an old util-linux) children are killed when this process exits
 * normally, and a render's timeout bounds an orphan otherwise.
 */
let deathSignalPrefix: string[] | undefined;

function dieWithParent(): string[] {
  if (deathSignalPrefix) return deathSignalPrefix;
  const setpriv = process.platform === 'linux' ? onPath('setpriv', process.env) : undefined;
  const works = setpriv !== undefined && spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', 'true']).status === 0;
  deathSignalPrefix = works ? [setpriv, '--pdeathsig', 'KILL', '--'] : [];
  return deathSignalPrefix;
}

const children = new Set<ReturnType<typeof spawn>>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Runs a binary with an argument array (never a shell) and kills it when `timeoutMs` passes or
 * `signal` aborts (the job expired, or its worker was taken for dead).
 */
export function runTool(
  binary: string,
  args: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const [command, ...prefix] = [...dieWithParent(), binary];
    const child = spawn(command!, [...prefix, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
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
    const settle = () => {
      clearTimeout(timer);
      children.delete(child);
      signal?.removeEventListener('abort', abort);
    };
    child.on('error', (error) => {
      settle();
      reject(new ToolError(`${path.basename(binary)}: ${error.message}`, stderr, false));
    });
    child.on('close', (code, exitSignal) => {
      settle();
      if (code === 0) return resolve({ stdout, stderr });
      if (signal?.aborted) return reject(signal.reason);
      const why = timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exit ${code ?? exitSignal}`;
      reject(new ToolError(`${path.basename(binary)} ${why}: ${lastLine(stderr)}`, stderr, timedOut));
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
