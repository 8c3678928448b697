import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { Route } from 'wouter';
import { api } from '../../src/lib/api';
import type { SpreadPayload, SpreadProposal } from '../../src/lib/contract';
import { PublishScreen } from '../../src/screens/video/publish-screen';
import { answerApi, renderScreen, shownDateTime } from './render';
import { boris, idUpload, request, vira } from './publish-fixtures';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));

/** Issue 31.3: 'Розподілити' fills each video's profile and date from the product's proposal, says why, and names what did not fit. */

beforeEach(() => {
  // Tuesday 1 December 2026, noon in Kyiv: the days typed below are ahead, as the form requires.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  vi.mocked(api).mockReset();
  toast.remove();
});

const proposal: SpreadProposal = {
  data: [
    {
      videoId: 11,
      accountId: boris.id,
      date: '2026-12-02T10:35:00+02:00',
      reason: 'Перший вільний слот: історії замало — з переглядами 0 публікацій, а потрібно 30, тож порядок простий',
    },
    { videoId: 12, accountId: vira.id, date: '2026-12-02T18:00:00+02:00', reason: 'Краща година профілю: 18:00' },
  ],
  unplaced: [{ videoId: 13, reason: 'Профіль #2 boris: немає вільних слотів до 03.12 — ліміт TikTok 15 на добу' }],
};

/** Types a Kyiv day into one of the panel's day fields, as `dd.mm.yyyy`. */
function typeDay(panel: HTMLElement, label: string, day: string) {
  fireEvent.change(within(panel).getByLabelText(`${label}: день`), { target: { value: day } });
}

function renderPublish(spread: (body: unknown) => unknown) {
  answerApi({
    [`GET /create-video/request/${idUpload}`]: request,
    [`POST /upload-video/${idUpload}/spread`]: spread,
  });
  return renderScreen(
    <Route path={/^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/}>
      <PublishScreen />
    </Route>,
    { path: `/video/request/${idUpload}` },
  );
}

describe('Розподілити', () => {
  it('sends the chosen profiles, ticked platforms and days, then shows each video’s profile, date and reason, and what did not fit', async () => {
    const user = userEvent.setup();
    const sent: SpreadPayload[] = [];
    renderPublish((body) => {
      sent.push(body as SpreadPayload);
      return proposal;
    });
    await user.click(await screen.findByRole('button', { name: 'Ранкові' }));
    const panel = screen.getByRole('group', { name: 'Розподілити за слотами' });
    typeDay(panel, 'З дня', '02.12.2026');
    typeDay(panel, 'До дня', '03.12.2026');
    await user.click(within(panel).getByRole('button', { name: 'Розподілити' }));

    await waitFor(() => expect(shownDateTime('Дата відео 1')).toBe('2026-12-02T10:35'));
    expect(sent).toEqual([
      {
        from: '2026-12-02',
        to: '2026-12-03',
        mode: 'even',
        // The form's words, empty here: the proposal fills each post's from them.
        title: '',
        description: '',
        tags: [],
        inYouTube: true,
        inTikTok: false,
        inInstagram: false,
        inFacebook: false,
        accounts: [{ id: boris.id }, { id: vira.id }],
        // The form gives the first videos the chosen profiles in turn; the rest the server's i-th rule.
        video: [
          { id: 11, account: { id: boris.id } },
          { id: 12, account: { id: vira.id } },
          { id: 13, account: null },
        ],
      },
    ]);
    expect(shownDateTime('Дата відео 2')).toBe('2026-12-02T18:00');
    expect(screen.getByLabelText('Профіль відео 1')).toHaveValue(String(boris.id));
    expect(screen.getByLabelText('Профіль відео 2')).toHaveValue(String(vira.id));
    expect(screen.getByText(proposal.data[1]!.reason)).toBeInTheDocument();
    const unplaced = within(panel).getByRole('status');
    expect(within(unplaced).getByText('Не вмістилися')).toBeInTheDocument();
    expect(within(unplaced).getByRole('listitem')).toHaveTextContent(`Відео 3: ${proposal.unplaced[0]!.reason}`);
  });

  it('refuses days that are not a range in Ukrainian and asks nothing', async () => {
    const user = userEvent.setup();
    const spread = vi.fn();
    renderPublish(spread);
    const panel = await screen.findByRole('group', { name: 'Розподілити за слотами' });
    typeDay(panel, 'До дня', '');
    await user.click(within(panel).getByRole('button', { name: 'Розподілити' }));
    expect(await within(panel).findByText('Кінець: дата РРРР-ММ-ДД')).toBeInTheDocument();
    typeDay(panel, 'До дня', '01.01.2020');
    await user.click(within(panel).getByRole('button', { name: 'Розподілити' }));
    expect(await within(panel).findByText('Кінець уже минув')).toBeInTheDocument();
    expect(spread).not.toHaveBeenCalled();
  });
});
