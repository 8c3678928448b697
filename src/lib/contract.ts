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

export type RequestStatus = 'loading' | 'success' | 'error';

export interface Photo {
  id: number;
  /** A signed, expiring media URL. */
  url: string;
}

export interface CreationRequestRow {
  id: number;
  idUpload: string;
  status: RequestStatus;
  countVideo: number;
  createdAt: string;
}

/** A rendered variant of a creation request; `url` and `posterUrl` are null until it is rendered. */
export interface RequestVideoItem {
  id: number;
  url: string | null;
  posterUrl: string | null;
  idUpload: string;
  createdAt: string;
  status: VideoStatus;
  error: string | null;
  errorInstagram: string | null;
  urlInstagram: string | null;
  urlYouTube: string | null;
  account: { id: number } | null;
  date: string | null;
}

export interface CreationRequestDetail extends CreationRequestRow {
  error: string | null;
  video: RequestVideoItem[];
}
