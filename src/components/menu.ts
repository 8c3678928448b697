import { ChartColumn, CalendarDays, Film, Image, Tags, UserRound, Users, type LucideIcon } from 'lucide-react';
import * as t from '../lib/i18n';

export interface MenuItem {
  id: string;
  name: string;
  icon: LucideIcon;
  url: string;
  children?: MenuItem[];
  adminOnly?: boolean;
}

export const menu: MenuItem[] = [
  {
    id: 'accounts',
    name: t.menu.accounts,
    icon: UserRound,
    url: '/accounts',
    children: [
      { id: 'accounts-list', name: t.menu.accountsList, icon: UserRound, url: '/accounts/list' },
      { id: 'accounts-groups', name: t.menu.accountGroups, icon: Users, url: '/accounts/group/list' },
    ],
  },
  {
    id: 'video',
    name: t.menu.video,
    icon: Film,
    url: '/video',
    children: [
      { id: 'video-list', name: t.menu.published, icon: Film, url: '/video/list' },
      { id: 'video-requests', name: t.menu.requests, icon: Film, url: '/video/request-create' },
    ],
  },
  { id: 'calendar', name: t.calendar.title, icon: CalendarDays, url: '/calendar' },
  { id: 'stats', name: t.menu.stats, icon: ChartColumn, url: '/stats' },
  { id: 'photos', name: t.menu.photos, icon: Image, url: '/photos/list' },
  { id: 'tags', name: t.menu.tags, icon: Tags, url: '/tags' },
  { id: 'users', name: t.menu.users, icon: Users, url: '/users', adminOnly: true },
];

/** A group opens by itself when the current path lies inside it. */
export function isInsideGroup(item: MenuItem, path: string): boolean {
  if (!item.children) return false;
  return path.startsWith(`${item.url}/`) || item.children.some((child) => path.startsWith(child.url));
}

export function isActive(item: MenuItem, path: string): boolean {
  return path === item.url || path.startsWith(`${item.url}/`);
}
