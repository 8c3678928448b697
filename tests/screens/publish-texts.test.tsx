import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { api } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { answerApi, renderScreen } from './render';
import { idUpload, request } from './publish-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

afterEach(() => {
  vi.mocked(api).mockReset();
  toast.remove();
});

function renderPublish(routes: Record<string, unknown> = {}) {
  answerApi({ [`GET /create-video/request/${idUpload}`]: request, ...routes });
  return renderScreen(
    <Route path={/^\/video\/request\/(?<idUpload>[^/]+)$/}>
      <PublishScreen />
    </Route>,
    { path: `/video/request/${idUpload}` },
  );
}

const counters = (platform: string) =>
  within(screen.getByRole('list', { name: t.texts.counters(platform) }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the publish form’s text per platform (issue 43.2)', () => {
  it('counts each ticked platform’s words as one types, the template’s worst case, and gives each its own tab', async () => {
    const user = userEvent.setup();
    renderPublish();
    // Pasted: user-event reads braces as key names.
    await user.click(await screen.findByLabelText('Назва'));
    await user.paste('Ранок {n}');
    // 'Ранок 3': the largest variant number of the set's three.
    expect(counters('YouTube')).toEqual(['Назва: 7 / 100', 'Опис: 0 / 5000 байт']);
    expect(screen.queryByRole('tab', { name: 'TikTok' })).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'TikTok' }));
    expect(screen.getByRole('tab', { name: 'TikTok' })).toBeInTheDocument();
    // The spintax counts its longer choice; the caption leaves the publish key's line its room (the set's largest video id, 13).
    await user.click(screen.getByLabelText('Опис'));
    await user.paste('{коротко|значно довше}');
    expect(counters('TikTok')).toEqual([`Підпис: ${'Ранок 3\n\nзначно довше'.length} / ${2200 - 'video-13-tiktok'.length - 2}`]);

    await user.click(screen.getByRole('tab', { name: 'YouTube' }));
    expect(screen.getByRole('tab', { name: 'YouTube' })).toHaveAttribute('aria-selected', 'true');
    const ownTitle = screen.getByLabelText(t.texts.ownTitle('YouTube'));
    expect(ownTitle).toHaveAttribute('placeholder', 'Ранок {n}');
    await user.type(ownTitle, 'Я'.repeat(101));
    expect(counters('YouTube')[0]).toBe('Назва: 101 / 100');
    expect(ownTitle).toHaveAccessibleDescription(expect.stringContaining(t.postingRules.titleTooLong(101, 100)));
  });

  it('refuses in the platform’s tab, shows that tab on Save, and sends nothing', async () => {
    const user = userEvent.setup();
    renderPublish();
    await user.type(await screen.findByLabelText('Назва'), 'Ранок');
    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('checkbox', { name: 'Instagram' }));
    await user.click(screen.getByRole('tab', { name: 'Instagram' }));
    const hashtags = Array.from({ length: 30 }, (_, index) => `#т${index}`).join(' ');
    await user.type(screen.getByLabelText(t.texts.ownDescription('Instagram')), hashtags);
    // 30 in the description and the set's tag: 31.
    expect(counters('Instagram')[1]).toBe('Хештеги: 31 / 30');
    await user.click(screen.getByRole('tab', { name: t.texts.common }));
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    expect(await screen.findByRole('tab', { name: 'Instagram', selected: true })).toBeInTheDocument();
    expect(screen.getByLabelText(t.texts.ownTags('Instagram'))).toHaveAccessibleDescription(
      expect.stringContaining(t.postingRules.tooManyHashtags(31, 30)),
    );
    expect(vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET')).toEqual([]);
  });

  it("sends a ticked platform's own fields as `texts`, and none for an empty tab", async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    renderPublish({ [`POST /upload-video/${idUpload}`]: (body: Record<string, unknown>) => (sent.push(body), { ok: true }) });
    await user.click(await screen.findByLabelText('Назва'));
    await user.paste('Ранок {n}');
    await user.type(screen.getByLabelText('Теги'), 'shorts ');
    await user.click(screen.getByRole('button', { name: 'Ранкові' }));
    await user.click(screen.getByRole('checkbox', { name: 'TikTok' }));
    await user.click(screen.getByRole('tab', { name: 'TikTok' }));
    await user.click(screen.getByLabelText(t.texts.ownDescription('TikTok')));
    await user.paste('{Привіт|Вітаю} від {profile}');
    await user.click(screen.getByRole('button', { name: 'Зберегти' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ title: 'Ранок {n}', texts: { tiktok: { description: '{Привіт|Вітаю} від {profile}' } } });
    expect(Object.keys(sent[0]!.texts as object)).toEqual(['tiktok']);
  });
});
