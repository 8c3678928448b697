import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { api } from '../../src/lib/api';
import type { AccountDetail, AccountGroupDetail, EffectiveSlots } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { AccountDetailScreen } from '../../src/screens/accounts/account-detail-screen';
import { GroupFormScreen } from '../../src/screens/groups/group-form-screen';
import { answerApi, renderScreen } from './render';

vi.mock('../../src/lib/api', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../src/lib/api')>()), api: vi.fn() }));
vi.mock('../../src/components/stats-panel', () => ({ StatsPanel: () => null }));

const emptyPage = { data: [], page: 1, totalPages: 0, total: 0 };
const groupSlots: EffectiveSlots = { from: '10:00', to: '20:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5], source: 'group' };

function profile(slots: EffectiveSlots): AccountDetail {
  return {
    id: 7,
    proxy: '10.0.0.1:8080',
    ipVersion: 'ipv4',
    comments: 'Main',
    status: 'noactive',
    group: { id: 3, name: 'Ранкові' },
    user: { id: 1, login: 'operator' },
    isActiveYouTube: false,
    isActiveTikTok: false,
    isActiveInstagram: false,
    inYouTube: false,
    inTikTok: false,
    inInstagram: false,
    isActiveFacebook: false,
    inFacebook: false,
    connectedAs: {},
    failedPlatforms: [],
    health: {},
    reach: [],
    connections: [],
    YouTubeAuthClientId: '',
    YouTubeAuthClientSecret: '',
    YouTubeLogin: '',
    YouTubePassword: '',
    InstagramLogin: '',
    InstagramPassword: '',
    InstagramAccessToken: '',
    InstagramUserId: '',
    TikTiokAuthStr: '',
    description: '',
    titleChannel: '',
    urlChannel: '',
    urlInstagram: '',
    profileNameInstagram: '',
    profileDescriptionInstagram: '',
    error: null,
    video: emptyPage,
    savedSecrets: {
      proxyPassword: false,
      YouTubeAuthClientSecret: false,
      YouTubePassword: false,
      InstagramPassword: false,
      InstagramAccessToken: false,
      TikTiokAuthStr: false,
    },
    slots,
  };
}

function renderProfile(routes: Record<string, unknown>) {
  answerApi(routes);
  return renderScreen(
    <Route path={/^\/accounts\/(?<id>\d+)$/}>
      <AccountDetailScreen />
    </Route>,
    { path: '/accounts/7' },
  );
}

const section = () => screen.findByRole('form', { name: t.postingSlots.title });
const dayBox = (name: string) => screen.getByRole('checkbox', { name });
const writes = () => vi.mocked(api).mock.calls.filter(([method]) => method !== 'GET');

afterEach(() => {
  vi.mocked(api).mockReset();
});

describe('posting slots section', () => {
  it('shows the slots a profile takes from its group and saves them as its own', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    let shown = profile(groupSlots);
    renderProfile({
      'GET /accounts/7': () => shown,
      'GET /accounts/setup': { mode: 'sandbox', sandboxProxy: null },
      'PUT /accounts/7/slots': (body: unknown) => {
        sent.push(body);
        shown = profile({ ...(body as EffectiveSlots), source: 'profile' });
        return shown.slots;
      },
    });
    const form = within(await section());
    expect(form.getByText('З групи «Ранкові»')).toBeInTheDocument();
    expect(form.getByLabelText(t.postingSlots.from)).toHaveValue('10:00');
    expect(form.getByLabelText(t.postingSlots.to)).toHaveValue('20:00');
    expect(form.getByLabelText(t.postingSlots.minGap)).toHaveValue(120);
    expect(dayBox('Понеділок')).toBeChecked();
    expect(dayBox('Субота')).not.toBeChecked();
    // A group's slots are not the profile's own to give up.
    expect(form.queryByRole('button', { name: t.postingSlots.clearProfile })).toBeNull();

    await user.clear(form.getByLabelText(t.postingSlots.from));
    await user.type(form.getByLabelText(t.postingSlots.from), '08:30');
    await user.clear(form.getByLabelText(t.postingSlots.minGap));
    await user.type(form.getByLabelText(t.postingSlots.minGap), '45');
    await user.click(dayBox('Понеділок'));
    await user.click(dayBox('Субота'));
    await user.click(form.getByRole('button', { name: t.postingSlots.save }));

    await waitFor(() => expect(sent).toEqual([{ from: '08:30', to: '20:00', minGapMinutes: 45, days: [2, 3, 4, 5, 6] }]));
    expect(await screen.findByText(t.postingSlots.saved)).toBeInTheDocument();
    expect(await within(await section()).findByText(t.postingSlots.sources.profile)).toBeInTheDocument();
  });

  it('names each wrong field in the catalog’s words, focuses the first and sends nothing', async () => {
    const user = userEvent.setup();
    renderProfile({ 'GET /accounts/7': profile(groupSlots), 'GET /accounts/setup': { mode: 'sandbox', sandboxProxy: null } });
    const form = within(await section());
    await user.clear(form.getByLabelText(t.postingSlots.to));
    await user.type(form.getByLabelText(t.postingSlots.to), '09:00');
    await user.clear(form.getByLabelText(t.postingSlots.minGap));
    await user.type(form.getByLabelText(t.postingSlots.minGap), '1500');
    for (const day of ['Понеділок', 'Вівторок', 'Середа', 'Четвер', 'Пʼятниця']) await user.click(dayBox(day));
    await user.click(form.getByRole('button', { name: t.postingSlots.save }));

    await waitFor(() =>
      expect(form.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
        t.postingSlots.toNotAfterFrom,
        t.postingSlots.gapInvalid,
        t.postingSlots.daysRequired,
      ]),
    );
    await waitFor(() => expect(form.getByLabelText(t.postingSlots.to)).toHaveFocus());

    // Only the days wrong: the focus goes to the first day.
    await user.clear(form.getByLabelText(t.postingSlots.to));
    await user.type(form.getByLabelText(t.postingSlots.to), '21:00');
    await user.clear(form.getByLabelText(t.postingSlots.minGap));
    await user.type(form.getByLabelText(t.postingSlots.minGap), '60');
    await user.click(form.getByRole('button', { name: t.postingSlots.save }));
    await waitFor(() => expect(dayBox('Понеділок')).toHaveFocus());
    expect(form.getByRole('alert')).toHaveTextContent(t.postingSlots.daysRequired);
    expect(writes()).toEqual([]);
  });

  it('gives up a profile’s own slots for its group’s', async () => {
    const user = userEvent.setup();
    let shown = profile({ ...groupSlots, from: '07:00', source: 'profile' });
    renderProfile({
      'GET /accounts/7': () => shown,
      'GET /accounts/setup': { mode: 'sandbox', sandboxProxy: null },
      'DELETE /accounts/7/slots': () => {
        shown = profile(groupSlots);
        return groupSlots;
      },
    });
    const form = within(await section());
    expect(form.getByText(t.postingSlots.sources.profile)).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: t.postingSlots.clearProfile }));
    expect(await form.findByText('З групи «Ранкові»')).toBeInTheDocument();
    expect(form.getByLabelText(t.postingSlots.from)).toHaveValue('10:00');
  });

  it('offers a group the same section, with the installation’s slots until it has its own', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const group: AccountGroupDetail = {
      id: 3,
      name: 'Ранкові',
      accounts: [{ id: 7, title: '#7 Main', value: 7 }],
      slots: { from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6, 7], source: 'installation' },
    };
    answerApi({
      'GET /accounts-group/3': group,
      'GET /accounts/search?groupId=3': group.accounts,
      'PUT /accounts-group/3/slots': (body: unknown) => (sent.push(body), { ...(body as object), source: 'group' }),
    });
    renderScreen(
      <Route path="/accounts/group/:id">
        <GroupFormScreen />
      </Route>,
      { path: '/accounts/group/3' },
    );
    const form = within(await section());
    expect(form.getByText(t.postingSlots.sources.installation)).toBeInTheDocument();
    await user.click(dayBox('Неділя'));
    await user.click(form.getByRole('button', { name: t.postingSlots.save }));
    await waitFor(() => expect(sent).toEqual([{ from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6] }]));
  });
});
