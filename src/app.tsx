import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { useSelector } from '@xstate/react';
import { isAuthLoading } from './machines/auth-session';
import { useAuthActor } from './components/auth-context';
import { SkipLink } from './components/skip-link';
import { Spinner } from './components/spinner';
import { LoginScreen } from './screens/login/login-screen';
import styles from './app.module.css';

// The menu and its bell are a chunk of their own, fetched with the first signed-in screen: the login screen does without them.
const Sidebar = lazy(() => import('./components/sidebar').then((module) => ({ default: module.Sidebar })));
// Each screen is its own chunk, fetched when first visited; the login screen comes first.
const HomeScreen = lazy(() => import('./screens/home/home-screen').then((module) => ({ default: module.HomeScreen })));
const NotFoundScreen = lazy(() => import('./screens/not-found/not-found-screen').then((module) => ({ default: module.NotFoundScreen })));
const SettingsScreen = lazy(() => import('./screens/settings/settings-screen').then((module) => ({ default: module.SettingsScreen })));
const ApiTokensScreen = lazy(() => import('./screens/settings/api-tokens-screen').then((module) => ({ default: module.ApiTokensScreen })));
const PhotoListScreen = lazy(() => import('./screens/photos/photo-list-screen').then((module) => ({ default: module.PhotoListScreen })));
const PhotoUploadScreen = lazy(() =>
  import('./screens/photos/photo-upload-screen').then((module) => ({ default: module.PhotoUploadScreen })),
);
const CreateVideoScreen = lazy(() =>
  import('./screens/video/create-video-screen').then((module) => ({ default: module.CreateVideoScreen })),
);
const RequestListScreen = lazy(() =>
  import('./screens/video/request-list-screen').then((module) => ({ default: module.RequestListScreen })),
);
const PublishScreen = lazy(() => import('./screens/video/publish-screen').then((module) => ({ default: module.PublishScreen })));
const UploadListScreen = lazy(() => import('./screens/video/upload-list-screen').then((module) => ({ default: module.UploadListScreen })));
const PublishedScreen = lazy(() => import('./screens/video/published-screen').then((module) => ({ default: module.PublishedScreen })));
const AccountListScreen = lazy(() =>
  import('./screens/accounts/account-list-screen').then((module) => ({ default: module.AccountListScreen })),
);
const AccountCreateScreen = lazy(() =>
  import('./screens/accounts/account-create-screen').then((module) => ({ default: module.AccountCreateScreen })),
);
const AccountDetailScreen = lazy(() =>
  import('./screens/accounts/account-detail-screen').then((module) => ({ default: module.AccountDetailScreen })),
);
const GroupListScreen = lazy(() => import('./screens/groups/group-list-screen').then((module) => ({ default: module.GroupListScreen })));
const GroupFormScreen = lazy(() => import('./screens/groups/group-form-screen').then((module) => ({ default: module.GroupFormScreen })));
const TagListScreen = lazy(() => import('./screens/tags/tag-list-screen').then((module) => ({ default: module.TagListScreen })));
const TagFormScreen = lazy(() => import('./screens/tags/tag-form-screen').then((module) => ({ default: module.TagFormScreen })));
const UserListScreen = lazy(() => import('./screens/users/user-list-screen').then((module) => ({ default: module.UserListScreen })));
const CalendarScreen = lazy(() => import('./screens/calendar/calendar-screen').then((module) => ({ default: module.CalendarScreen })));
const StatsScreen = lazy(() => import('./screens/stats/stats-screen').then((module) => ({ default: module.StatsScreen })));
const UserFormScreen = lazy(() => import('./screens/users/user-form-screen').then((module) => ({ default: module.UserFormScreen })));

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
            <Route path="/" component={HomeScreen} />
            <Route path="/setting" component={SettingsScreen} />
            <Route path="/setting/tokens" component={ApiTokensScreen} />
            <Route path="/photos/list" component={PhotoListScreen} />
            <Route path="/photos/create" component={PhotoUploadScreen} />
            <Route path="/video/create" component={CreateVideoScreen} />
            <Route path="/video/request-create" component={RequestListScreen} />
            {/* Without an idUpload the screens go back to their list themselves, as after a failed load. */}
            <Route path={/^\/video\/request(?:\/(?<idUpload>[^/]+))?\/?$/} component={PublishScreen} />
            <Route path="/video/list" component={UploadListScreen} />
            <Route path={/^\/video\/youtube(?:\/(?<idUpload>[^/]+))?\/?$/} component={PublishedScreen} />
            <Route path="/accounts/list" component={AccountListScreen} />
            <Route path="/accounts/create" component={AccountCreateScreen} />
            <Route path={/^\/accounts\/(?<id>\d+)$/} component={AccountDetailScreen} />
            <Route path="/accounts/group/list" component={GroupListScreen} />
            <Route path="/accounts/group/create" component={GroupFormScreen} />
            <Route path={/^\/accounts\/group\/(?<id>\d+)$/} component={GroupFormScreen} />
            <Route path="/tags" component={TagListScreen} />
            <Route path="/tags/create" component={TagFormScreen} />
            <Route path={/^\/tags\/(?<id>\d+)$/} component={TagFormScreen} />
            <Route path="/calendar" component={CalendarScreen} />
            <Route path="/stats" component={StatsScreen} />
            <Route path="/users" component={UserListScreen} />
            <Route path="/users/create" component={UserFormScreen} />
            <Route path={/^\/users\/(?<id>\d+)$/} component={UserFormScreen} />
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
  if (loading) return <Spinner fullScreen />;
  // The login screen keeps whatever path was asked for, so signing in lands there.
  if (!signedIn) return <LoginScreen />;
  return <RoutedApp />;
}
