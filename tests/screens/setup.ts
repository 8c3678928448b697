import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { publishDrafts } from '../../src/machines/publish-draft-store';

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Drafts live for the whole session in the app; each test starts a new one.
  for (const idUpload of Object.keys(publishDrafts.getSnapshot().context.drafts)) publishDrafts.trigger.forget({ idUpload });
});
