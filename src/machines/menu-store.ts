import { createStore } from '@xstate/store';
import { createJSONStorage, persist } from '@xstate/store/persist';

interface MenuState {
  collapsed: boolean;
  /** Groups the operator opened or closed by hand; the others follow the current path. */
  open: Record<string, boolean>;
}

/** The sidebar as the operator left it, kept across screens and visits (localStorage). */
export const menuStore = createStore({
  context: { collapsed: false, open: {} } as MenuState,
  on: {
    toggleCollapsed: (context) => ({ ...context, collapsed: !context.collapsed }),
    toggleGroup: (context, event: { id: string; wasOpen: boolean }) => ({
      ...context,
      open: { ...context.open, [event.id]: !event.wasOpen },
    }),
  },
}).with(persist({ name: 'shorts-office.menu', storage: createJSONStorage(() => localStorage) }));

/** A group is open as the operator left it, else when the current path lies inside it. */
export function isGroupOpen(state: MenuState, id: string, inside: boolean): boolean {
  return state.open[id] ?? inside;
}
