/** Shapes that cross the wire between the SPA and the server. Pure types: the server imports them too. */

export type Role = 'admin' | 'user';

export interface SessionUser {
  id: number;
  login: string;
  role: Role;
}

export interface LoginResponse {
  user: SessionUser;
  accessToken: string;
  refreshToken: string;
}

export interface RefreshResponse {
  accessToken: string;
  refreshToken: string;
}

export interface Paged<T> {
  data: T[];
  page: number;
  totalPages: number;
  total: number;
}

export interface ErrorResponse {
  statusCode: number;
  error: string;
  message: string | string[];
}

export type VideoStatus = 'loading' | 'publication' | 'success' | 'error' | 'noactive';
export type AccountStatus = 'publication' | 'loading' | 'success' | 'error' | 'noactive';
