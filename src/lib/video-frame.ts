/**
 * A still of a local video file at `atSeconds` (or its middle, if shorter), as a JPEG data URL:
 * the browser decodes it, no upload needed. Rejects when the browser cannot play the format.
 */
export function captureFrame(file: Blob, atSeconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const finish = (outcome: () => void) => {
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      video.load();
      outcome();
    };
    video.muted = true;
    video.preload = 'auto';
    video.playsInline = true;
    video.onloadedmetadata = () => {
      video.currentTime = Number.isFinite(video.duration) ? Math.min(atSeconds, video.duration / 2) : atSeconds;
    };
    video.onseeked = () => {
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) return finish(() => reject(new Error('no frame')));
      context.drawImage(video, 0, 0);
      const frame = canvas.toDataURL('image/jpeg', 0.85);
      finish(() => resolve(frame));
    };
    video.onerror = () => finish(() => reject(new Error('cannot decode')));
    video.src = url;
  });
}
