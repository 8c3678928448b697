import { Link, useLocation } from 'wouter';
import { useSelector } from '@xstate/store-react';
import { useEffect, useState } from 'react';
import { ChevronDown, KeyRound, LogOut, Menu as MenuIcon, Settings, UserCircle, X } from 'lucide-react';
import * as t from '../lib/i18n';
import { isGroupOpen, menuStore } from '../machines/menu-store';
import { useAuthActor, useSessionUser } from './auth-context';
import { Dropdown } from './dropdown';
import { isActive, isInsideGroup, menu, type MenuItem } from './menu';
import { NotificationBell } from './notification-bell';
import { useMediaQuery } from './use-media-query';
import styles from './sidebar.module.css';

function MenuGroup({ item, path, collapsed }: { item: MenuItem; path: string; collapsed: boolean }) {
  const inside = isInsideGroup(item, path);
  const open = useSelector(menuStore, (state) => isGroupOpen(state.context, item.id, inside));
  const Icon = item.icon;
  return (
    <li>
      <button
        type="button"
        className={`${styles.link} ${inside ? styles.activeGroup : ''}`}
        aria-expanded={open}
        onClick={() => menuStore.trigger.toggleGroup({ id: item.id, wasOpen: open })}
        title={collapsed ? item.name : undefined}
      >
        <Icon size={18} aria-hidden />
        <span className={styles.label}>{item.name}</span>
        <ChevronDown size={16} aria-hidden className={`${styles.chevron} ${open ? styles.chevronOpen : ''}`} />
      </button>
      {open && (
        <ul className={styles.subMenu}>
          {item.children!.map((child) => (
            <li key={child.id}>
              <Link href={child.url} className={`${styles.subLink} ${isActive(child, path) ? styles.active : ''}`}>
                {child.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** Where the sidebar becomes a drawer; the CSS says the same width. */
const phoneWidth = '(max-width: 768px)';

/**
 * The menu: a sidebar on wide screens; on phones (CSS, ≤ 768 px) a drawer behind a top bar's
 * button, closed by a pick, Escape or a tap outside.
 */
export function Sidebar() {
  const [path] = useLocation();
  const user = useSessionUser();
  const auth = useAuthActor();
  const collapsed = useSelector(menuStore, (state) => state.context.collapsed);
  // The drawer is open on the page it was opened on: a pick in it (a new path) closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const drawerOpen = openedOn === path;
  const setDrawerOpen = (open: boolean) => setOpenedOn(open ? path : null);
  const items = menu.filter((item) => !item.adminOnly || user?.role === 'admin');
  // One bell, so one reader of the notifications: on phones in the top bar, where it is seen without opening the drawer.
  const phone = useMediaQuery(phoneWidth);

  useEffect(() => {
    if (!drawerOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenedOn(null);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [drawerOpen]);

  return (
    <>
      <header className={styles.mobileBar}>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={drawerOpen ? t.app.closeMenu : t.app.openMenu}
          aria-expanded={drawerOpen}
          aria-controls="main-menu"
          onClick={() => setDrawerOpen(!drawerOpen)}
        >
          {drawerOpen ? <X size={20} aria-hidden /> : <MenuIcon size={20} aria-hidden />}
        </button>
        <Link href="/" className={styles.logo}>
          {t.app.logo}
        </Link>
        {phone && (
          <div className={styles.mobileActions}>
            <NotificationBell triggerClassName={styles.iconButton} />
          </div>
        )}
      </header>
      {drawerOpen && <div className={styles.backdrop} aria-hidden onClick={() => setDrawerOpen(false)} />}
      <SidebarPanel path={path} collapsed={collapsed} drawerOpen={drawerOpen} items={items} user={user} auth={auth} bell={!phone} />
    </>
  );
}

interface SidebarPanelProps {
  path: string;
  collapsed: boolean;
  drawerOpen: boolean;
  items: MenuItem[];
  user: ReturnType<typeof useSessionUser>;
  auth: ReturnType<typeof useAuthActor>;
  bell: boolean;
}

function SidebarPanel({ path, collapsed, drawerOpen, items, user, auth, bell }: SidebarPanelProps) {
  return (
    <aside id="main-menu" className={`${styles.sidebar} ${collapsed ? styles.collapsed : ''} ${drawerOpen ? styles.drawerOpen : ''}`}>
      {/* The aside is the dark column as long as the page; this, the menu itself, stays on the screen as the page scrolls. */}
      <div className={styles.panel}>
        <div className={styles.top}>
          <Link href="/" className={styles.logo}>
            {t.app.logo}
          </Link>
          <div className={styles.topActions}>
            {bell && <NotificationBell triggerClassName={styles.iconButton} />}
            <button
              type="button"
              className={`${styles.iconButton} ${styles.collapseButton}`}
              aria-label={t.app.toggleMenu}
              aria-pressed={collapsed}
              onClick={() => menuStore.trigger.toggleCollapsed()}
            >
              <MenuIcon size={18} aria-hidden />
            </button>
          </div>
        </div>

        <nav className={styles.nav}>
          <ul className={styles.menu}>
            {items.map((item) =>
              item.children ? (
                <MenuGroup key={item.id} item={item} path={path} collapsed={collapsed} />
              ) : (
                <li key={item.id}>
                  <Link
                    href={item.url}
                    className={`${styles.link} ${isActive(item, path) ? styles.active : ''}`}
                    title={collapsed ? item.name : undefined}
                  >
                    <item.icon size={18} aria-hidden />
                    <span className={styles.label}>{item.name}</span>
                  </Link>
                </li>
              ),
            )}
          </ul>
        </nav>

        <div className={styles.userBox}>
          <Dropdown
            kind="menu"
            align="up"
            triggerLabel={user?.login ?? ''}
            triggerClassName={styles.userButton}
            trigger={
              <>
                <UserCircle size={20} aria-hidden />
                <span className={styles.label} data-testid="user-login">
                  {user?.login}
                </span>
              </>
            }
          >
            {(close) => (
              <div className={styles.userMenu}>
                <Link href="/setting" role="menuitem" className={styles.userMenuItem} onClick={close}>
                  <Settings size={16} aria-hidden /> {t.app.settings}
                </Link>
                <Link href="/setting/tokens" role="menuitem" className={styles.userMenuItem} onClick={close}>
                  <KeyRound size={16} aria-hidden /> {t.apiTokens.title}
                </Link>
                <button
                  type="button"
                  role="menuitem"
                  className={styles.userMenuItem}
                  onClick={() => {
                    close();
                    auth.send({ type: 'logout' });
                  }}
                >
                  <LogOut size={16} aria-hidden /> {t.app.logout}
                </button>
              </div>
            )}
          </Dropdown>
        </div>
      </div>
    </aside>
  );
}
