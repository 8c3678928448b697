/** Issue 40.2: a video's posts, a badge per platform, and a set's posts by state. */
export const postBadges = {
  list: 'Публікації на платформах',
  badge: (platform: string, state: string) => `${platform}: ${state.toLocaleLowerCase('uk')}`,
  publishedAt: (date: string) => `вийшло ${date}`,
  /** The published list's column of the posts' own dates, with when the set was sent under them. */
  column: 'Дати публікацій',
  sentAt: (date: string) => `надіслано ${date}`,
  plannedAt: (date: string) => `заплановано на ${date}`,
  /** Null when every post went out (the status says so) or there are none. */
  setCounts: (posts: { published: number; scheduled: number; held: number; failed: number }): string | null => {
    const total = posts.published + posts.scheduled + posts.held + posts.failed;
    if (!(total > 0) || posts.published === total) return null;
    const rest = (
      [
        [posts.failed, 'з помилкою'],
        [posts.held, 'утримано'],
        [posts.scheduled, 'заплановано'],
      ] as const
    )
      .filter(([count]) => count > 0)
      .map(([count, label]) => `, ${label} — ${count}`)
      .join('');
    return posts.published > 0 ? `Частково: вийшло ${posts.published} з ${total}${rest}` : `Вийшло 0 з ${total}${rest}`;
  },
} as const;
