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
