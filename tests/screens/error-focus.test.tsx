import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { api } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { TagFormScreen } from '../../src/screens/tags/tag-form-screen';
import { answerApi, renderScreen } from './render';
import { boris, idUpload, request, vira } from './publish-fixtures';

/**
 * Issue 30.3: a failed submit takes the keyboard to the first wrong field, whose message is said
 * there (its aria-describedby), and no toast repeats it. The submit is pressed by keyboard, as the
 * issue found it: Enter on the form's button at the bottom.
 */

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

beforeEach(() => {
  vi.spyOn(toast, 'error');
});

afterEach(() => {
  vi.mocked(api).mockReset();
  vi.mocked(toast.error).mockRestore();
  toast.remove();
});

/** The focused control, once the focus has moved to `control` (a label's, unless given). */
async function focusLandsOn(control: string | (() => HTMLElement)): Promise<HTMLElement> {
  const find = typeof control === 'string' ? () => screen.getByLabelText(control) : control;
  await waitFor(() => expect(document.activeElement).toBe(find()), { timeout: 2000 });
  return document.activeElement as HTMLElement;
}

/** The messages the focused control is described by, as a screen reader reads them with it. */
const describedBy = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

/** Every error toast raised, whatever its words. */
const errorToasts = () => vi.mocked(toast.error).mock.calls.map(([message]) => message);

async function pressSave(user: ReturnType<typeof userEvent.setup>, name: string) {
  screen.getByRole('button', { name }).focus();
  await user.keyboard('{Enter}');
}

function renderPublish() {
  answerApi({ [`GET /create-video/request/${idUpload}`]: request, [`GET /posting-rules?accountIds=${boris.id},${vira.id}`]: { data: [] } });
  return renderScreen(
    <Route path={/^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/}>
      <PublishScreen />
    </Route>,
    { path: `/video/request/${idUpload}` },
  );
}

describe('publish form', () => {
  it('with no tags, takes the focus from Зберегти to the tags, where "Мінімум один тег" is said, with no toast', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.type(await screen.findByLabelText('Назва'), 'Випуск');
    await pressSave(user, t.publish.save);

    const tags = await focusLandsOn(t.publish.tags);
    expect(tags).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(tags)).toEqual([t.tagSets.tagsMin]);
    expect(errorToasts()).toEqual([]);
  });

  it('with the texts right and no profile, takes the focus to the profiles, which the machine found wrong', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.type(await screen.findByLabelText('Назва'), 'Випуск');
    await user.type(screen.getByLabelText(t.publish.tags), 'shorts ');
    await pressSave(user, t.publish.save);

    const profiles = await focusLandsOn(() => screen.getByRole('combobox', { name: t.publish.accounts }));
    expect(describedBy(profiles)).toEqual([t.groups.accountsMin]);
    expect(errorToasts()).toEqual([]);
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
  });

  it('with no platform ticked, takes the focus to the first platform and says to tick one there', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.type(await screen.findByLabelText('Назва'), 'Випуск');
    await user.type(screen.getByLabelText(t.publish.tags), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('checkbox', { name: t.accountForm.youtube }));
    await pressSave(user, t.publish.save);

    const youtube = await focusLandsOn(t.accountForm.youtube);
    expect(describedBy(youtube)).toEqual([t.postTruth.noPlatformTicked]);
    expect(errorToasts()).toEqual([]);
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
  });
});

describe('a record form (tag set)', () => {
  it('with a name and no tags, takes the focus to the tags and says it there, with no toast', async () => {
    const user = userEvent.setup();
    answerApi({});
    renderScreen(
      <Route path="/tags/create">
        <TagFormScreen />
      </Route>,
      { path: '/tags/create' },
    );
    await user.type(await screen.findByLabelText(t.tagSets.name), 'Ранок');
    await pressSave(user, t.app.create);

    const tags = await focusLandsOn(t.tagSets.tags);
    expect(describedBy(tags)).toEqual([t.tagSets.tagsMin]);
    expect(errorToasts()).toEqual([]);
    expect(api).not.toHaveBeenCalled();
  });
});
