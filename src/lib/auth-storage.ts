import type { SessionUser } from './contract';

/** The persisted auth state, under the name and version SPEC.md gives it. */
export const authStorageKey = 'authStore';
export const authStorageVersion = 1;

export interface StoredAuthState {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: SessionUser | null;
  accessToken: string | null;
  refreshToken: string | null;
}

export function loadStoredAuth(storage: Storage = localStorage): Pick<StoredAuthState, 'user' | 'accessToken' | 'refreshToken'> {
  try {
    const raw = JSON.parse(storage.getItem(authStorageKey) ?? 'null');
    if (raw?.version === authStorageVersion && raw.state) {
      const { user = null, accessToken = null, refreshToken = null } = raw.state as StoredAuthState;
      return { user, accessToken, refreshToken };
    }
  } catch {
    // A corrupt entry is the same as none: the operator signs in again.
  }
  return { user: null, accessToken: null, refreshToken: null };
}

export function saveStoredAuth(state: StoredAuthState, storage: Storage = localStorage): void {
  storage.setItem(authStorageKey, JSON.stringify({ state, version: authStorageVersion }));
}
