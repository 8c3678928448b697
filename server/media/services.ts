import path from 'node:path';
import { diskStorage, type MediaStorage } from './storage';
import { s3Storage, type S3Settings } from './s3-storage';
import { resolveMediaTools, type MediaTools } from './tools';

export interface MediaSettings {
  maxUploadBytes: number;
  maxImageBytes: number;
  maxImagePixels: number;
  maxVariants: number;
  maxVideoSeconds: number;
  /** Longest side of a source video's picture: decoding cost grows with it, and a render slot is held meanwhile. */
  maxVideoSide: number;
  /** x264 preset of the rendered variants; tests use ultrafast. */
  renderPreset: string;
  /** Variants encoded by one ffmpeg process: each output holds an encoder in memory. */
  renderOutputsPerPass: number;
  renderTimeoutSeconds: number;
  mediaUrlTtlSeconds: number;
}

/** Where media objects live: the disk under DATA_DIR, or an S3-compatible store (STORAGE_URL). */
export type StorageSettings = { kind: 'disk' } | ({ kind: 's3' } & S3Settings);

/** Everything the media routes and the render worker share. */
export interface MediaServices {
  storage: MediaStorage;
  tools: MediaTools;
  settings: MediaSettings;
}

export function mediaRoot(dataDir: string): string {
  return path.join(dataDir, 'media');
}

export function mediaServices(
  config: MediaSettings & { storage: StorageSettings; dataDir: string; ffmpegPath: string | undefined; ffprobePath: string | undefined },
): MediaServices {
  return {
    storage: config.storage.kind === 's3' ? s3Storage(config.storage, mediaRoot(config.dataDir)) : diskStorage(mediaRoot(config.dataDir)),
    tools: resolveMediaTools(config),
    settings: {
      maxUploadBytes: config.maxUploadBytes,
      maxImageBytes: config.maxImageBytes,
      maxImagePixels: config.maxImagePixels,
      maxVariants: config.maxVariants,
      maxVideoSeconds: config.maxVideoSeconds,
      maxVideoSide: config.maxVideoSide,
      renderPreset: config.renderPreset,
      renderOutputsPerPass: config.renderOutputsPerPass,
      renderTimeoutSeconds: config.renderTimeoutSeconds,
      mediaUrlTtlSeconds: config.mediaUrlTtlSeconds,
    },
  };
}
