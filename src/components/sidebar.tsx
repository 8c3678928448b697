import { Link, useLocation } from 'wouter';
import { useSelector } from '@xstate/store-react';
import { Bell, ChevronDown, LogOut, Menu as MenuIcon, Settings, UserCircle } from 'lucide-react';
import { t } from '../lib/i18n';
import { isGroupOpen, menuStore } from '../machines/menu-store';
import { useAuthActor, useSessionUser } from './auth-context';
import { Dropdown } from './dropdown';
import { isActive, isInsideGroup, menu, type MenuItem } from './menu';
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

export function Sidebar() {
  const [path] = useLocation();
  const user = useSessionUser();
  const auth = useAuthActor();
  const collapsed = useSelector(menuStore, (state) => state.context.collapsed);
  const items = menu.filter((item) => !item.adminOnly || user?.role === 'admin');

  return (
    <aside className={`${styles.sidebar} ${collapsed ? styles.collapsed : ''}`}>
      <div className={styles.top}>
        <Link href="/" className={styles.logo}>
          {t.app.logo}
        </Link>
        <div className={styles.topActions}>
          <Dropdown trigger={<Bell size={18} aria-hidden />} triggerLabel={t.app.notifications} triggerClassName={styles.iconButton}>
            {() => (
              <div className={styles.notifications}>
                <div className={styles.panelTitle}>{t.app.notifications}</div>
                <p className={styles.empty}>{t.app.noNotifications}</p>
              </div>
            )}
          </Dropdown>
          <button
            type="button"
            className={styles.iconButton}
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
            <ul className={styles.userMenu}>
              <li>
                <Link href="/setting" className={styles.userMenuItem} onClick={close}>
                  <Settings size={16} aria-hidden /> {t.app.settings}
                </Link>
              </li>
              <li>
                <button
                  type="button"
                  className={styles.userMenuItem}
                  onClick={() => {
                    close();
                    auth.send({ type: 'logout' });
                  }}
                >
                  <LogOut size={16} aria-hidden /> {t.app.logout}
                </button>
              </li>
            </ul>
          )}
        </Dropdown>
      </div>
    </aside>
  );
}
