-- Issue 28.1: why a pending post waits is stored as a kind the code decides on and the figures its
-- words need (src/lib/post-waits.ts), no longer as the catalog's sentence: rewording a sentence
-- left the posts that waited for a reconnect waiting forever. The sentences stored so far are read
-- back here, once, by their wording at the time (src/lib/i18n.ts before this migration); any other
-- text stays a retry with its words kept.
ALTER TABLE video_posts
  ADD COLUMN wait_kind text CHECK (wait_kind IN ('retry', 'busy', 'quota', 'cap', 'reconnect')),
  ADD COLUMN wait_detail jsonb,
  ADD CONSTRAINT video_posts_wait_detail_check CHECK ((wait_kind IS NULL) = (wait_detail IS NULL));

UPDATE video_posts SET (wait_kind, wait_detail) = (
  SELECT kind, detail FROM (
    SELECT CASE
      WHEN wait_reason LIKE 'Спроба не вдалася: %' THEN 'retry'
      WHEN wait_reason LIKE 'Профіль зараз завантажує інше відео в %' THEN 'busy'
      WHEN wait_reason LIKE 'Платформа просить зачекати: %' THEN 'quota'
      WHEN wait_reason LIKE 'Доступ % відкликано — підключіть профіль знову' THEN 'reconnect'
      WHEN wait_reason LIKE 'Ліміт % вичерпано — так відповіла платформа' THEN 'cap'
      WHEN youtube[1] IS NOT NULL OR rolling[1] IS NOT NULL THEN 'cap'
      ELSE 'retry' END AS kind,
    CASE
      WHEN wait_reason LIKE 'Спроба не вдалася: %' THEN jsonb_build_object('reason', substr(wait_reason, length('Спроба не вдалася: ') + 1))
      WHEN wait_reason LIKE 'Профіль зараз завантажує інше відео в %' THEN '{}'::jsonb
      WHEN wait_reason LIKE 'Платформа просить зачекати: %'
        THEN jsonb_build_object('reason', substr(wait_reason, length('Платформа просить зачекати: ') + 1))
      WHEN wait_reason LIKE 'Доступ % відкликано — підключіть профіль знову' THEN '{}'::jsonb
      WHEN wait_reason LIKE 'Ліміт % вичерпано — так відповіла платформа' THEN jsonb_build_object('refused', true)
      WHEN youtube[1] IS NOT NULL THEN jsonb_build_object('limit', youtube[1]::int, 'windowHours', NULL)
      WHEN rolling[1] IS NOT NULL THEN jsonb_build_object('limit', rolling[1]::int, 'windowHours', rolling[2]::int)
      ELSE jsonb_build_object('reason', wait_reason) END AS detail
    FROM (SELECT regexp_match(wait_reason, '^Ліміт YouTube: (\d+) завантажень на день') AS youtube,
                 regexp_match(wait_reason, '^Ліміт \S+: (\d+) публікацій за (\d+) год вичерпано$') AS rolling) AS matched
  ) AS mapped
)
WHERE wait_reason IS NOT NULL;

ALTER TABLE video_posts DROP COLUMN wait_reason;
