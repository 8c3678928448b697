import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { api } from '../../src/lib/api';
import type { PostOptions, ProfilePostingRules, PublishPayload } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { answerApi, renderScreen } from './render';
import { boris, idUpload, offered, request } from './publish-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

afterEach(() => {
  vi.mocked(api).mockReset();
  toast.remove();
});

const publishRoute = /^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/;

const borisRules: ProfilePostingRules = {
  accountId: boris.id,
  title: boris.title,
  platforms: ['youtube', 'tiktok'],
  tiktok: {
    nickname: 'Борис біжить',
    username: 'boris.runs',
    privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
    commentDisabled: false,
    duetDisabled: true,
    stitchDisabled: false,
    maxVideoPostDurationSec: 180,
  },
  tiktokError: null,
  saved: {},
};

describe('The publish form’s per-platform choices', () => {
  it('asks TikTok’s questions with no default, greys what the creator turned off, and sends the choices made', async () => {
    const user = userEvent.setup();
    let sent: PublishPayload | undefined;
    let saved: PostOptions | undefined;
    answerApi({
      [`GET /create-video/request/${idUpload}`]: { ...request, accounts: [offered(boris, ['youtube', 'tiktok'])] },
      [`GET /posting-rules?accountIds=${boris.id}`]: { data: [borisRules] },
      [`PUT /posting-rules/${boris.id}`]: (body: unknown) => {
        saved = body as PostOptions;
        return { data: { ...borisRules, saved: body } };
      },
      [`POST /upload-video/${idUpload}`]: (body: unknown) => {
        sent = body as PublishPayload;
        return { ...request, status: 'published' };
      },
    });
    renderScreen(
      <Route path={publishRoute}>
        <PublishScreen />
      </Route>,
      { path: `/video/request/${idUpload}` },
    );
    await user.type(await screen.findByLabelText(t.publish.name), 'Ранок');
    await user.click(screen.getByRole('checkbox', { name: t.accountForm.tiktok }));
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: boris.title }));

    expect(await screen.findByText(t.postingRules.postingAs(boris.title, 'Борис біжить'))).toBeInTheDocument();
    expect(screen.getByText(t.postingRules.maxDuration(180))).toBeInTheDocument();
    expect(screen.getByText(t.postingRules.musicDeclaration)).toBeInTheDocument();
    const privacy = screen.getByLabelText(t.postingRules.tiktokPrivacy) as HTMLSelectElement;
    expect(privacy.value).toBe('');
    expect([...privacy.options].map((option) => option.textContent)).toEqual([
      t.postingRules.choose,
      t.postingRules.privacyLevels.FOLLOWER_OF_CREATOR,
      t.postingRules.privacyLevels.SELF_ONLY,
    ]);
    expect(screen.getByRole('checkbox', { name: t.postingRules.allowDuet })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: t.postingRules.allowComment })).not.toBeChecked();

    await user.selectOptions(privacy, 'FOLLOWER_OF_CREATOR');
    await user.click(screen.getByRole('checkbox', { name: t.postingRules.allowComment }));
    await user.click(screen.getByRole('checkbox', { name: t.postingRules.commercial }));
    await user.click(screen.getByRole('checkbox', { name: t.postingRules.brandContent }));
    expect(screen.getByText(t.postingRules.brandedDeclaration)).toBeInTheDocument();
    expect(screen.getByRole('option', { name: t.postingRules.privacyLevels.SELF_ONLY })).toBeDisabled();

    // YouTube's made-for-kids declaration starts unanswered.
    expect(screen.getByRole('radio', { name: t.postingRules.madeForKidsYes })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: t.postingRules.madeForKidsNo })).not.toBeChecked();
    await user.click(screen.getByRole('radio', { name: t.postingRules.madeForKidsNo }));

    await user.click(screen.getByRole('button', { name: t.postingRules.saveDefaults }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(saved!.tiktok).toMatchObject({ privacyLevel: 'FOLLOWER_OF_CREATOR', disableComment: false, brandContentToggle: true });

    await user.click(screen.getByRole('button', { name: 'Музика' }));
    await user.click(screen.getByRole('button', { name: t.publish.save }));
    await waitFor(() => expect(sent).toBeDefined());
    expect(sent!.options).toEqual({
      tiktok: {
        privacyLevel: 'FOLLOWER_OF_CREATOR',
        disableComment: false,
        disableDuet: true,
        disableStitch: true,
        brandOrganicToggle: true,
        brandContentToggle: true,
      },
      youtube: { selfDeclaredMadeForKids: false },
    });
  });

  it('says Meta’s rules for a Reel in the Facebook part, from its descriptor, only while Facebook is ticked', async () => {
    const user = userEvent.setup();
    answerApi({
      [`GET /create-video/request/${idUpload}`]: { ...request, accounts: [offered(boris, ['youtube', 'facebook'])] },
      [`GET /posting-rules?accountIds=${boris.id}`]: {
        data: [{ ...borisRules, platforms: ['youtube', 'facebook'], tiktok: null }],
      },
    });
    renderScreen(
      <Route path={publishRoute}>
        <PublishScreen />
      </Route>,
      { path: `/video/request/${idUpload}` },
    );
    await user.click(await screen.findByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: boris.title }));
    const rules =
      'Reels на сторінці: від 3 до 90 с, від 24 до 60 кадрів за секунду, вертикальний кадр 9:16 (кожен варіант рендериться як 1080×1920); щонайбільше 30 публікацій на сторінку за 24 год';
    expect(screen.queryByText(rules)).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Facebook' }));
    expect(await screen.findByText(rules)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Facebook' })).toContainElement(screen.getByText(rules));
    await user.click(screen.getByRole('checkbox', { name: 'Facebook' }));
    await waitFor(() => expect(screen.queryByText(rules)).not.toBeInTheDocument());
  });

  it('marks the choices the route would refuse and puts the focus on the first, sending nothing (issue 40.4)', async () => {
    const user = userEvent.setup();
    answerApi({
      [`GET /create-video/request/${idUpload}`]: { ...request, accounts: [offered(boris, ['youtube', 'tiktok'])] },
      [`GET /posting-rules?accountIds=${boris.id}`]: { data: [borisRules] },
    });
    renderScreen(
      <Route path={publishRoute}>
        <PublishScreen />
      </Route>,
      { path: `/video/request/${idUpload}` },
    );
    await user.type(await screen.findByLabelText(t.publish.name), 'Ранок');
    await user.click(screen.getByRole('checkbox', { name: t.accountForm.tiktok }));
    await user.click(screen.getByRole('combobox', { name: 'Профілі' }));
    await user.click(screen.getByRole('option', { name: boris.title }));
    await screen.findByText(t.postingRules.postingAs(boris.title, 'Борис біжить'));
    await user.click(screen.getByRole('button', { name: 'Музика' }));
    await user.click(screen.getByRole('button', { name: t.publish.save }));

    const privacy = screen.getByLabelText(t.postingRules.tiktokPrivacy);
    await waitFor(() => expect(privacy).toHaveFocus());
    expect(privacy).toHaveAttribute('aria-invalid', 'true');
    expect(privacy).toHaveAccessibleDescription(t.postingRules.tiktokPrivacyRequired(boris.title));
    const kids = screen.getByRole('group', { name: t.postingRules.madeForKids });
    expect(kids).toHaveAccessibleDescription(t.postingRules.youtubeKidsRequired(boris.title));
    expect(screen.getByRole('radio', { name: t.postingRules.madeForKidsNo })).toHaveAttribute('aria-invalid', 'true');
    // Each refusal is said once, on its field: no toast repeats it.
    expect(screen.getAllByText(t.postingRules.youtubeKidsRequired(boris.title))).toHaveLength(1);
    expect(vi.mocked(api).mock.calls.filter(([method]) => method === 'POST')).toEqual([]);

    // Answered, the mark goes.
    await user.click(screen.getByRole('radio', { name: t.postingRules.madeForKidsNo }));
    expect(screen.queryByText(t.postingRules.youtubeKidsRequired(boris.title))).toBeNull();
  });
});
