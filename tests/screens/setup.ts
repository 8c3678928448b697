import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { publishDrafts } from '../../src/machines/publish-draft-store';

// jsdom has no matchMedia, which the toaster asks about reduced motion.
window.matchMedia ??= (query: string) =>
  ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;

// goober (react-hot-toast's styles) finds its one <style id="_goober"> through the window's named
// access to ids, which jsdom lacks: it added a new <style> at each toast style, 674 of them by the end
// of publish-model, and every getComputedStyle (each *ByRole query asks it, for each element) read
// them all: 25 of that file's 41 s.
Object.defineProperty(window, '_goober', { get: () => document.getElementById('_goober'), configurable: true });

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Drafts outlive a reload in the app; each test starts without any.
  publishDrafts.trigger.forgetAll();
});
