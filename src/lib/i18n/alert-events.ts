/** Issue 32.3: what a user can be told of, by its event name (src/lib/contract/lists.ts alertEvents). */
export const alertEvents = {
  'post.failed': 'Публікація не вдалася',
  'post.held': 'Публікацію утримано лімітом',
  'post.published': 'Публікація вийшла',
  'profile.unhealthy': 'Профіль не працює',
  'grant.revoked': 'Профіль втратив доступ',
} as Record<string, string>;
