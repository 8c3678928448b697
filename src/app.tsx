import { Route, Switch } from 'wouter';
import { useSelector } from '@xstate/react';
import { isAuthLoading } from './machines/auth-session';
import { useAuthActor } from './components/auth-context';
import { Sidebar } from './components/sidebar';
import { Spinner } from './components/spinner';
import { LoginScreen } from './screens/login/login-screen';
import { NotFoundScreen } from './screens/not-found/not-found-screen';
import { SettingsScreen } from './screens/settings/settings-screen';
import { PhotoListScreen } from './screens/photos/photo-list-screen';
import { PhotoUploadScreen } from './screens/photos/photo-upload-screen';
import { CreateVideoScreen } from './screens/video/create-video-screen';
import { RequestListScreen } from './screens/video/request-list-screen';
import { PublishScreen } from './screens/video/publish-screen';
import { UploadListScreen } from './screens/video/upload-list-screen';
import { PublishedScreen } from './screens/video/published-screen';
import { AccountListScreen } from './screens/accounts/account-list-screen';
import { AccountCreateScreen } from './screens/accounts/account-create-screen';
import { AccountDetailScreen } from './screens/accounts/account-detail-screen';
import { GroupListScreen } from './screens/groups/group-list-screen';
import { GroupFormScreen } from './screens/groups/group-form-screen';
import { TagListScreen } from './screens/tags/tag-list-screen';
import { TagFormScreen } from './screens/tags/tag-form-screen';
import { UserListScreen } from './screens/users/user-list-screen';
import { UserFormScreen } from './screens/users/user-form-screen';
import styles from './app.module.css';

function RoutedApp() {
  return (
    <div className={styles.layout}>
      <Sidebar />
      <main className={styles.content}>
        <Switch>
          <Route path="/">
            <Spinner />
          </Route>
          <Route path="/setting" component={SettingsScreen} />
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
          <Route path="/users" component={UserListScreen} />
          <Route path="/users/create" component={UserFormScreen} />
          <Route path={/^\/users\/(?<id>\d+)$/} component={UserFormScreen} />
          <Route component={NotFoundScreen} />
        </Switch>
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
