/**
 * Query parameters that carry a credential: OAuth codes and states, signed media links, passwords,
 * and any parameter named like a token (`access_token`, `refresh_token`, TikTok's `upload_token`…).
 */
const credentialParameter = /([?&](?:code|state|client_secret|sig|password|[^&=#]*token[^&=#]*)=)[^&#]*/gi;

/** A Telegram bot's token travels in the Bot API's path (the sandbox's mirror logs its requests). */
const botTokenInPath = /(\/bot)\d+:[^/?]+/g;

/** A URL as logs and the sandbox's request records keep it: without the credentials that travel in it. */
export function redactUrl(url: string): string {
  return url.replace(credentialParameter, '$1[Redacted]').replace(botTokenInPath, '$1[Redacted]');
}
