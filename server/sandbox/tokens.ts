import crypto from 'node:crypto';
import type { Platform } from '../platforms/types';
import { accountOfToken, sandboxTokenPrefix } from './common';

const hour = 3600;
const day = 24 * hour;

/**
 * The platforms' own token lifetimes, in seconds.
 * - TikTok, "Manage OAuth Access Tokens" (Token lifetimes): access token 2 hours, refresh token
 *   180 days; "Refresh a User Access Token": refresh tokens rotate, the previous one stops working.
 * - Instagram API with Instagram Login, "Get long-lived access tokens": the code gives a
 *   short-lived token valid 1 hour, exchanged for a long-lived one valid 60 days, which
 *   refresh_access_token renews once it is at least 24 hours old.
 * - Facebook Login, "Long-Lived Access Tokens": the dialog's code gives a short-lived User token
 *   (about an hour), fb_exchange_token a long-lived one of about 60 days; "Long-lived Page access
 *   tokens … have no expiration date", and a Page token got from a short-lived User token ends with it.
 * - Google, "Using OAuth 2.0 to Access Google APIs": access tokens last 1 hour; refresh tokens of
 *   an app whose publishing status is "Testing" expire after 7 days.
 * Authorization codes: Google's and TikTok's are single-use and short-lived; the sandbox gives
 * them 10 minutes.
 */
export const tokenLifetimes: Record<Platform, { access: number; refresh: number; longLived?: number }> = {
  tiktok: { access: 2 * hour, refresh: 180 * day },
  instagram: { access: hour, refresh: 60 * day, longLived: 60 * day },
  youtube: { access: hour, refresh: 7 * day },
  facebook: { access: hour, refresh: 60 * day, longLived: 60 * day },
};
export const codeTtlSeconds = 600;
/** Instagram's refresh_access_token refuses a long-lived token younger than this. */
export const instagramRefreshMinAgeSeconds = day;

/** One user's consent to one app: every token issued from it dies when it is revoked. */
export interface Grant extends GrantDetails {
  id: string;
  platform: Platform;
  account: string;
  revoked: boolean;
}

/** What the app asked for: refreshing needs the same client and secret. */
export interface GrantDetails {
  client?: string;
  secretDigest?: string;
  scope?: string;
  /** Facebook: the Pages the person let the app use in the dialog. */
  pages?: string[];
}

/**
 * `long-lived` is Instagram's and Facebook's exchanged access token (Instagram's refresh_access_token
 * renews it); `page` is a Facebook Page token, which names its Page after the person (see `issue`).
 */
export type TokenKind = 'access' | 'long-lived' | 'refresh' | 'page';

interface IssuedToken {
  grant: string;
  kind: TokenKind;
  issuedAt: number;
  /** Null for a token that does not expire (a Page token from a long-lived User token). */
  expiresAt: number | null;
  /** A rotated refresh token: refused from then on. */
  spent?: boolean;
}

export type TokenCheck =
  | { ok: true; account: string; grant: string | null; issuedAt: number; expiresAt: number | null; kind: TokenKind | null }
  | { ok: false; reason: 'invalid' | 'expired' | 'revoked' | 'spent' };

export interface PersistedTokens {
  grants: Grant[];
  tokens: [string, IssuedToken][];
  firstSeen: [string, number][];
}

/**
 * Tokens and grants the sandbox's consent pages and token endpoints issued, with their ages.
 *
 * Tokens of the sandbox's shape that no endpoint issued here (SPEC's pasted TikTok string
 * `sandbox-tt-<name>`, the Instagram sandbox login's token, tokens tests mint with
 * issueSandboxToken) stand for a whole authorization obtained elsewhere, which the product can
 * neither refresh nor renew: they age from their first use by the sandbox, for the lifetime of
 * the grant behind them (the platform's refresh-token lifetime: TikTok 180 days, Instagram 60 days,
 * Google 7 days), or for `SANDBOX_TOKEN_TTL_SECONDS` when that is set.
 */
export class SandboxTokens {
  private readonly grants = new Map<string, Grant>();
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly firstSeen = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    /** SANDBOX_TOKEN_TTL_SECONDS: shortens every access token, and the life of tokens issued elsewhere. */
    private readonly accessTtlSeconds: number | undefined,
    private readonly save: () => void,
  ) {}

  /** Seconds an access token of the platform lives: the platform's own, or the shortened one. */
  accessTtl(platform: Platform): number {
    return this.accessTtlSeconds ?? tokenLifetimes[platform].access;
  }

  /** Instagram's and Facebook's long-lived token: 60 days, or the shortened access lifetime. */
  longLivedTtl(platform: Platform): number {
    return this.accessTtlSeconds ?? tokenLifetimes[platform].longLived ?? tokenLifetimes[platform].access;
  }

  /**
   * Instagram's 24 hours before a long-lived token may be renewed, shortened with the token itself
   * (a sixtieth of it, as 1 day of 60) when SANDBOX_TOKEN_TTL_SECONDS is set, so a shortened token
   * can be renewed before it ends, as a real one can.
   */
  instagramRefreshMinAge(): number {
    return this.accessTtlSeconds === undefined ? instagramRefreshMinAgeSeconds : this.accessTtlSeconds / 60;
  }

  newGrant(platform: Platform, account: string, details: GrantDetails = {}): string {
    const id = crypto.randomBytes(9).toString('base64url');
    this.grants.set(id, { ...details, id, platform, account, revoked: false });
    this.save();
    return id;
  }

  /** The account's live grant, made on first need: Google's sandbox signs its own tokens and keeps no grant of its own. */
  liveGrant(platform: Platform, account: string): string {
    for (const grant of this.grants.values()) {
      if (grant.platform === platform && grant.account === account && !grant.revoked) return grant.id;
    }
    return this.newGrant(platform, account);
  }

  /**
   * A token of the sandbox's shape (see common.ts), so every mirror knows whose it is; `subject`
   * (a Facebook Page's id) follows the account, before the nonce. A null lifetime never ends.
   */
  issue(platform: Platform, grantId: string, kind: TokenKind, ttlSeconds: number | null, subject?: string): string {
    const grant = this.grants.get(grantId)!;
    const named = subject === undefined ? grant.account : `${grant.account}.${subject}`;
    const token = `${sandboxTokenPrefix[platform]}${named}.${crypto.randomBytes(18).toString('base64url')}`;
    const issuedAt = this.now();
    this.tokens.set(token, { grant: grantId, kind, issuedAt, expiresAt: ttlSeconds === null ? null : issuedAt + ttlSeconds * 1000 });
    this.save();
    return token;
  }

  /** Registers a token another module signs itself (Google's), so it ages and dies with its grant. */
  register(token: string, grantId: string, kind: TokenKind, ttlSeconds: number) {
    const issuedAt = this.now();
    this.tokens.set(token, { grant: grantId, kind, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000 });
    this.save();
  }

  /** Whether an access token works now, and for whom. */
  checkAccess(platform: Platform, token: string | null, isAccountRevoked: (account: string) => boolean): TokenCheck {
    const account = accountOfToken(platform, token);
    if (!token || !account) return { ok: false, reason: 'invalid' };
    const issued = this.tokens.get(token);
    if (issued) return this.checkIssued(platform, issued, issued.kind === 'refresh' ? 'access' : issued.kind);
    if (isAccountRevoked(account)) return { ok: false, reason: 'revoked' };
    let seen = this.firstSeen.get(token);
    if (seen === undefined) {
      seen = this.now();
      this.firstSeen.set(token, seen);
      this.save();
    }
    const lifetime = this.accessTtlSeconds ?? tokenLifetimes[platform].refresh;
    if (this.now() >= seen + lifetime * 1000) return { ok: false, reason: 'expired' };
    return { ok: true, account, grant: null, issuedAt: seen, expiresAt: seen + lifetime * 1000, kind: null };
  }

  /** Whether a refresh token works now; a spent (rotated) one never does again. */
  checkRefresh(platform: Platform, token: string | undefined): TokenCheck {
    const issued = token ? this.tokens.get(token) : undefined;
    if (!issued) return { ok: false, reason: 'invalid' };
    return this.checkIssued(platform, issued, 'refresh');
  }

  grant(id: string): Grant | undefined {
    return this.grants.get(id);
  }

  /** Rotation: the refresh token just used stops working. */
  spend(token: string) {
    const issued = this.tokens.get(token);
    if (issued) issued.spent = true;
    this.save();
  }

  /** Every account of the platform a grant was given to or a token of the sandbox's shape reached. */
  accounts(platform: Platform): Set<string> {
    const accounts = new Set<string>();
    for (const grant of this.grants.values()) if (grant.platform === platform) accounts.add(grant.account);
    for (const token of this.firstSeen.keys()) {
      const account = accountOfToken(platform, token);
      if (account) accounts.add(account);
    }
    return accounts;
  }

  /** `/sandbox/_revoke`: every grant the account gave so far dies with all its tokens; a new consent makes a new one. */
  revokeAccount(platform: Platform, account: string) {
    for (const grant of this.grants.values()) if (grant.platform === platform && grant.account === account) grant.revoked = true;
  }

  private checkIssued(platform: Platform, issued: IssuedToken, kind: TokenKind): TokenCheck {
    const grant = this.grants.get(issued.grant);
    if (!grant || grant.platform !== platform || issued.kind !== kind) return { ok: false, reason: 'invalid' };
    if (grant.revoked) return { ok: false, reason: 'revoked' };
    if (issued.spent) return { ok: false, reason: 'spent' };
    if (issued.expiresAt !== null && this.now() >= issued.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, account: grant.account, grant: grant.id, issuedAt: issued.issuedAt, expiresAt: issued.expiresAt, kind: issued.kind };
  }

  toJSON(): PersistedTokens {
    return { grants: [...this.grants.values()], tokens: [...this.tokens], firstSeen: [...this.firstSeen] };
  }

  load(saved: PersistedTokens | undefined) {
    for (const grant of saved?.grants ?? []) this.grants.set(grant.id, grant);
    for (const [token, issued] of saved?.tokens ?? []) this.tokens.set(token, issued);
    for (const [token, seen] of saved?.firstSeen ?? []) this.firstSeen.set(token, seen);
  }
}
