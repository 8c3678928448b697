import { useEffect, useState } from 'react';

/**
 * The browser's time, read once when the component mounts and again every `everyMs`: a render
 * must not read the clock itself (it would differ between renders), and words such as 'Дата вже
 * минула' or a code's end still change as time passes while the screen stays open.
 */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
