import { createElement, lazy, Suspense, useDeferredValue, useEffect, useState, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import { useSelector } from '@xstate/react';
import { isAuthLoading } from './machines/auth-session';
import { prefetch } from './lib/api';
import { listQuery } from './lib/pagination';
import { useAuthActor } from './components/auth-context';
import { SkipLink } from './components/skip-link';
import { Spinner } from './components/spinner';
import { LoginScreen } from './screens/login/login-screen';
import styles from './app.module.css';

/**
 * A chunk of its own, fetched when first drawn, or earlier by `preload`: while a stored session is
 * checked (`/api/auth/me`), the menu's and the asked screen's chunks come in beside it, not after
 * (main.tsx).
 *
 * A chunk already in is drawn at once. A lazy component suspends on its first draw even then, and
 * once a Suspense fallback has shown, React holds back what replaces it until 300 ms after
 * (FALLBACK_THROTTLE_MS in react-dom's work loop): on a 4x slower phone CPU the signed-in page
 * came 350 ms after the session check, where its own work took 50.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each screen takes its own props (the route's params)
function preloadable(load: () => Promise<ComponentType<any>>) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  let loaded: ComponentType<any> | undefined;
  const preload = () => load().then((component) => (loaded = component));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  function Preloadable(props: any) {
    // Chosen once for each mounted screen: changing the type later would remount it and lose its state.
    const [component] = useState(() => loaded ?? Lazy);
    return createElement(component, props);
  }
  return Object.assign(Preloadable, { preload });
}

// The menu and its bell are a chunk of their own, fetched with the first signed-in screen: the login screen does without them.
const Sidebar = preloadable(() => import('./components/sidebar').then((module) => module.Sidebar));
// Each screen is its own chunk, fetched when first visited; the login screen comes first.
const HomeScreen = preloadable(() => import('./screens/home/home-screen').then((module) => module.HomeScreen));
const NotFoundScreen = preloadable(() => import('./screens/not-found/not-found-screen').then((module) => module.NotFoundScreen));
const SettingsScreen = preloadable(() => import('./screens/settings/settings-screen').then((module) => module.SettingsScreen));
const ApiTokensScreen = preloadable(() => import('./screens/settings/api-tokens-screen').then((module) => module.ApiTokensScreen));
const PhotoListScreen = preloadable(() => import('./screens/photos/photo-list-screen').then((module) => module.PhotoListScreen));
const PhotoUploadScreen = preloadable(() => import('./screens/photos/photo-upload-screen').then((module) => module.PhotoUploadScreen));
const CreateVideoScreen = preloadable(() => import('./screens/video/create-video-screen').then((module) => module.CreateVideoScreen));
const RequestListScreen = preloadable(() => import('./screens/video/request-list-screen').then((module) => module.RequestListScreen));
const PublishScreen = preloadable(() => import('./screens/video/publish-screen').then((module) => module.PublishScreen));
const UploadListScreen = preloadable(() => import('./screens/video/upload-list-screen').then((module) => module.UploadListScreen));
const PublishedScreen = preloadable(() => import('./screens/video/published-screen').then((module) => module.PublishedScreen));
const AccountListScreen = preloadable(() => import('./screens/accounts/account-list-screen').then((module) => module.AccountListScreen));
const AccountCreateScreen = preloadable(() =>
  import('./screens/accounts/account-create-screen').then((module) => module.AccountCreateScreen),
);
const AccountDetailScreen = preloadable(() =>
  import('./screens/accounts/account-detail-screen').then((module) => module.AccountDetailScreen),
);
const GroupListScreen = preloadable(() => import('./screens/groups/group-list-screen').then((module) => module.GroupListScreen));
const GroupFormScreen = preloadable(() => import('./screens/groups/group-form-screen').then((module) => module.GroupFormScreen));
const TagListScreen = preloadable(() => import('./screens/tags/tag-list-screen').then((module) => module.TagListScreen));
const TagFormScreen = preloadable(() => import('./screens/tags/tag-form-screen').then((module) => module.TagFormScreen));
const UserListScreen = preloadable(() => import('./screens/users/user-list-screen').then((module) => module.UserListScreen));
const CalendarScreen = preloadable(() => import('./screens/calendar/calendar-screen').then((module) => module.CalendarScreen));
const StatsScreen = preloadable(() => import('./screens/stats/stats-screen').then((module) => module.StatsScreen));
const UserFormScreen = preloadable(() => import('./screens/users/user-form-screen').then((module) => module.UserFormScreen));

/**
 * Each screen's path, as wouter matches it: a path alone, or a pattern naming its parameters; and
 * for some, the API path the screen reads first, so a signed-in visit can ask for it beside the
 * session check (`preloadSignedIn`).
 */
const routes: {
  path: string | RegExp;
  screen: ReturnType<typeof preloadable>;
  firstRead?: (params: Record<string, string | undefined>, search: string) => string | undefined;
}[] = [
  { path: '/', screen: HomeScreen },
  { path: '/setting', screen: SettingsScreen },
  { path: '/setting/tokens', screen: ApiTokensScreen },
  { path: '/photos/list', screen: PhotoListScreen },
  { path: '/photos/create', screen: PhotoUploadScreen },
  { path: '/video/create', screen: CreateVideoScreen },
  { path: '/video/request-create', screen: RequestListScreen },
  // Without an idUpload the screens go back to their list themselves, as after a failed load.
  {
    path: /^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/,
    screen: PublishScreen,
    // As publish-machine.ts asks for the request.
    firstRead: ({ idUpload }) => idUpload && `/create-video/request/${idUpload}`,
  },
  { path: '/video/list', screen: UploadListScreen },
  { path: /^\/video\/youtube(?:\/(?<idUpload>[^/]+))?\/?$/, screen: PublishedScreen },
  // As useListPage asks for its page.
  { path: '/accounts/list', screen: AccountListScreen, firstRead: (_, search) => `/accounts?${listQuery(search)}` },
  { path: '/accounts/create', screen: AccountCreateScreen },
  { path: /^\/accounts\/(?<id>\d+)$/, screen: AccountDetailScreen },
  { path: '/accounts/group/list', screen: GroupListScreen },
  { path: '/accounts/group/create', screen: GroupFormScreen },
  { path: /^\/accounts\/group\/(?<id>\d+)$/, screen: GroupFormScreen },
  { path: '/tags', screen: TagListScreen },
  { path: '/tags/create', screen: TagFormScreen },
  { path: /^\/tags\/(?<id>\d+)$/, screen: TagFormScreen },
  { path: '/calendar', screen: CalendarScreen },
  { path: '/stats', screen: StatsScreen },
  { path: '/users', screen: UserListScreen },
  { path: '/users/create', screen: UserFormScreen },
  { path: /^\/users\/(?<id>\d+)$/, screen: UserFormScreen },
];

/** Settles when the chunks `preloadSignedIn` asked for are in, or have failed (the lazy draw then asks again). */
let firstChunks: Promise<unknown> = Promise.resolve();

/**
 * Fetches what a signed-in visit of `path` needs first, without waiting to draw it: the menu's and
 * its screen's chunks, and the screen's first read.
 */
export function preloadSignedIn(path: string, search: string) {
  const route = routes.find((each) => (typeof each.path === 'string' ? each.path === path : each.path.test(path)));
  const chunks = Promise.all([Sidebar.preload(), route?.screen.preload()]);
  firstChunks = chunks.catch(() => undefined);
  if (!route) return;
  const params = typeof route.path === 'string' ? {} : (route.path.exec(path)?.groups ?? {});
  const firstRead = route.firstRead?.(params, search);
  if (firstRead) prefetch(firstRead);
}

/** Whether the first signed-in page's chunks are in, so it is drawn whole rather than through Suspense's fallbacks. */
function useFirstChunksIn() {
  const [chunksIn, setChunksIn] = useState(false);
  useEffect(() => {
    let mounted = true;
    void firstChunks.then(() => mounted && setChunksIn(true));
    return () => {
      mounted = false;
    };
  }, []);
  return chunksIn;
}

function RoutedApp() {
  return (
    <div className={styles.layout}>
      <SkipLink targetId="main-content" />
      <Suspense>
        <Sidebar />
      </Suspense>
      <main id="main-content" tabIndex={-1} className={styles.content}>
        <Suspense fallback={<Spinner />}>
          <Switch>
            {routes.map(({ path, screen }) => (
              <Route key={String(path)} path={path} component={screen} />
            ))}
            <Route component={NotFoundScreen} />
          </Switch>
        </Suspense>
      </main>
    </div>
  );
}

export function App() {
  const auth = useAuthActor();
  const loading = useSelector(auth, isAuthLoading);
  const signedIn = useSelector(auth, (snapshot) => snapshot.matches('signedIn'));
  const firstChunksIn = useFirstChunksIn();
  const shown = loading || (signedIn && !firstChunksIn) ? 'spinner' : signedIn ? 'signedIn' : 'signedOut';
  // Drawn in a render React may pause between elements (a deferred value), so a phone's main thread
  // is not held for the whole first page at once (Lighthouse's total blocking time, docs/benchmarks.md).
  const drawn = useDeferredValue(shown);
  if (drawn === 'spinner') return <Spinner fullScreen />;
  // The login screen keeps whatever path was asked for, so signing in lands there.
  if (drawn === 'signedOut') return <LoginScreen />;
  return <RoutedApp />;
}
