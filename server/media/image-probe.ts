import fs from 'node:fs/promises';

export interface ImageInfo {
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
  extension: 'png' | 'jpg' | 'webp';
  width: number;
  height: number;
}

type Reader = (offset: number, length: number) => Promise<Buffer>;

function png(head: Buffer): ImageInfo | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (head.length < 24 || !head.subarray(0, 8).equals(signature) || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { contentType: 'image/png', extension: 'png', width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

function webp(head: Buffer): ImageInfo | null {
  if (head.length < 30 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = head.toString('latin1', 12, 16);
  const info = (width: number, height: number): ImageInfo => ({ contentType: 'image/webp', extension: 'webp', width, height });
  if (chunk === 'VP8 ' && head[23] === 0x9d && head[24] === 0x01 && head[25] === 0x2a) {
    return info(head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L' && head[20] === 0x2f) {
    const bits = head.readUInt32LE(21);
    return info((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return info(head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1);
  return null;
}

/** Start-of-frame markers carry the dimensions; C4, C8 and CC share the range but are other segments. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks the segments up to the frame header; EXIF and ICC segments may push it far into the file. */
async function jpeg(head: Buffer, read: Reader, size: number): Promise<ImageInfo | null> {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8 || head[2] !== 0xff) return null;
  let offset = 2;
  while (offset + 9 <= size) {
    const segment = await read(offset, 9);
    if (segment[0] !== 0xff) return null;
    const marker = segment[1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (isStartOfFrame(marker)) {
      return { contentType: 'image/jpeg', extension: 'jpg', width: segment.readUInt16BE(7), height: segment.readUInt16BE(5) };
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    offset += 2 + segment.readUInt16BE(2);
  }
  return null;
}

/** The real type and size of an image from its bytes, whatever its name or declared type; null if it is none of PNG, JPEG, WebP. */
export async function probeImage(file: string): Promise<ImageInfo | null> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const read: Reader = async (offset, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    };
    const head = await read(0, 32);
    const info = png(head) ?? webp(head) ?? (await jpeg(head, read, size));
    return info && info.width > 0 && info.height > 0 ? info : null;
  } finally {
    await handle.close();
  }
}
