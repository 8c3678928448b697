import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { publishDrafts } from '../../src/machines/publish-draft-store';

// jsdom has no matchMedia, which the toaster asks about reduced motion.
window.matchMedia ??= (query: string) =>
  ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Drafts outlive a reload in the app; each test starts without any.
  publishDrafts.trigger.forgetAll();
});
