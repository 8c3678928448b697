import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { AnyStateMachine } from 'xstate';
import { TestModel } from 'xstate/graph';
import { ApiError } from '../../src/lib/api';
import type { Paged, TagSet } from '../../src/lib/contract';
import { resourceMachine, type ResourceContext } from '../../src/machines/resource-machine';
import { TagListScreen } from '../../src/screens/tags/tag-list-screen';
import { renderScreen } from './render';
import { errorBody, serverDouble, type ServerDouble, statesReached, testEachPath } from './server-double';

const tagSet = (id: number): TagSet => ({ id, name: `Набір ${id}`, tags: ['music'] });
const pageOf = (page: number): Paged<TagSet> => ({ data: [tagSet(page * 10 + 1), tagSet(page * 10 + 2)], page, totalPages: 2, total: 4 });
const down = ['Сервер тимчасово недоступний'];

/** The list's events an operator can cause: the server's answers, a row's delete icon, the other page. */
function eventsFor({ context }: { context: ResourceContext }) {
  const page = Number(new URLSearchParams((context.path ?? '').split('?')[1]).get('page'));
  const shown = context.data as Paged<TagSet> | undefined;
  return [
    { type: 'xstate.done.actor.load', output: pageOf(page) },
    { type: 'xstate.error.actor.load', error: new ApiError(500, down) },
    ...(shown ? [{ type: 'remove', path: `/tags/${shown.data[0].id}`, successText: 'Набір тегів видалено' }] : []),
    { type: 'xstate.done.actor.remove', output: undefined },
    { type: 'xstate.error.actor.remove', error: new ApiError(500, down) },
    ...(shown && page === 1 ? [{ type: 'path.change', path: '/tags?page=2' }] : []),
  ] as never[];
}

// The machine's emitted events do not fit TestModel's types; the model never looks at them.
const model = new TestModel(resourceMachine as AnyStateMachine, {
  input: { path: '/tags?page=1' },
  events: eventsFor,
  stateMatcher: (snapshot, key) => snapshot.matches(key as never),
  filterEvents: (snapshot, event) => snapshot.can(event as never),
  serializeState: (snapshot, event, previous) => {
    const seen = (each: { value: unknown; context: ResourceContext }) => [
      each.value,
      each.context.path,
      Boolean(each.context.data),
      Boolean(each.context.error),
    ];
    const changed = !previous || JSON.stringify(seen(previous)) !== JSON.stringify(seen(snapshot));
    return JSON.stringify([...seen(snapshot), changed ? event?.type : undefined]);
  },
});

let server: ServerDouble;
let user: UserEvent;
/** The page the server last sent, the page asked for, and the toasts said so far. */
let shown: Paged<TagSet> | undefined;
let page: number;
let toasts: string[];
let location: ReturnType<typeof renderScreen>['location'];

beforeEach(() => {
  server = serverDouble();
  user = userEvent.setup();
  shown = undefined;
  page = 1;
  toasts = [];
});

afterEach(() => {
  toast.remove();
});

const events = {
  'xstate.init': async () => {
    ({ location } = renderScreen(<TagListScreen />, { path: '/tags' }));
  },
  'xstate.done.actor.load': async () => {
    await server.answer('GET', `/tags?page=${page}`, 200, pageOf(page));
    shown = pageOf(page);
  },
  'xstate.error.actor.load': async () => {
    await server.answer('GET', `/tags?page=${page}`, 500, errorBody(500, down));
    shown = undefined;
  },
  remove: async () => {
    await user.click(screen.getByRole('button', { name: `Видалити набір тегів ${shown!.data[0].name}` }));
    await user.click(screen.getByRole('button', { name: 'Видалити' }));
  },
  'xstate.done.actor.remove': async () => {
    await server.answer('DELETE', `/tags/${shown!.data[0].id}`, 204);
    toasts.push('Набір тегів видалено');
  },
  'xstate.error.actor.remove': async () => {
    await server.answer('DELETE', `/tags/${shown!.data[0].id}`, 500, errorBody(500, down));
    toasts.push('Помилка при видаленні');
  },
  'path.change': async () => {
    await user.click(within(screen.getByRole('navigation', { name: 'Сторінки' })).getByRole('link', { name: '2' }));
    page = 2;
  },
};

async function showsThePage() {
  expect(screen.getByRole('heading', { name: 'Набори тегів' })).toBeInTheDocument();
  const names = screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1].textContent);
  expect(names).toEqual(shown!.data.map((each) => each.name));
  for (const text of toasts) expect(await screen.findByText(text)).toBeInTheDocument();
}

const states = {
  loading: async () => {
    await waitFor(() => expect(server.pending()).toEqual([`GET /tags?page=${page}`]));
    if (shown) await showsThePage();
    else expect(screen.getByRole('status', { name: 'Завантаження' })).toBeInTheDocument();
  },
  ready: async () => {
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    await showsThePage();
    expect(location.history?.at(-1)).toBe(page === 1 ? '/tags' : '/tags?page=2');
  },
  failed: async () => {
    expect(await screen.findByRole('alert')).toHaveTextContent(down[0]);
    expect(screen.queryByRole('table')).toBeNull();
  },
  removing: async () => {
    expect(await screen.findByText('Видалення ...')).toBeInTheDocument();
    expect(server.pending()).toEqual([`DELETE /tags/${shown!.data[0].id}`]);
  },
};

describe('tag list screen, walked along the resource machine', () => {
  const paths = model.getShortestPaths();

  it('reaches every state a list can be in', () => {
    expect(statesReached(paths)).toEqual(['"failed"', '"loading"', '"removing"', '{"ready":"still"}'].sort());
  });

  testEachPath(paths, { events: events as never, states });
});
