-- Issue 39.4: why a post failed is stored as a kind the code decides on, with the platform's own
-- answer beside it as data (its code and message, `answer`; the figures the words need), no longer
-- as the catalog's sentence (src/lib/post-failures.ts). video_posts.failure keeps the last failure:
-- final when the post is in error, else the one its retries will end with. A retry's or a quota's
-- wait keeps the failure that made it wait the same way (wait_detail = {"failure": …}). The words
-- are made where the API answers, so rewording the catalog changes no row.
ALTER TABLE video_posts
  ADD COLUMN failure text CHECK (failure IN (
    'rejected', 'rate_limited', 'cap_refused', 'unavailable', 'processing_failed', 'processing_timeout', 'video_not_found',
    'auth_revoked', 'grant_revoked', 'not_connected', 'app_missing', 'secrets_unreadable', 'instagram_token_missing',
    'rule_refused', 'network', 'proxy_unreachable', 'proxy_auth', 'proxy_not_public', 'timed_out', 'profile_deleted',
    'file_missing', 'gave_up', 'unknown')),
  ADD COLUMN failure_detail jsonb,
  ADD CONSTRAINT video_posts_failure_detail_check CHECK ((failure IS NULL) = (failure_detail IS NULL));

-- The sentences stored so far are read back here, once, by their wording at the time (the
-- catalog before this migration): 'Платформа: what happened (the platform's own words)'. A
-- posting rule's refusal, worded with its figures, and any other text become 'unknown', their
-- words kept as they were.
CREATE FUNCTION post_failure_of_sentence(sentence text) RETURNS jsonb LANGUAGE sql AS $$
  SELECT coalesce(
    (SELECT CASE WHEN rest = words THEN jsonb_build_object('kind', kind)
                 ELSE jsonb_build_object('kind', kind, 'answer', substr(rest, length(words) + 3, length(rest) - length(words) - 3)) END
       FROM (SELECT substr(sentence, strpos(sentence, ': ') + 2) AS rest) AS tail,
            (VALUES ('rejected', 'Платформа відхилила запит'),
                    ('rate_limited', 'Платформа обмежила частоту запитів, повторимо пізніше'),
                    ('cap_refused', 'Вичерпано ліміт платформи, повторимо пізніше'),
                    ('unavailable', 'Платформа тимчасово недоступна'),
                    ('processing_failed', 'Платформа не змогла обробити відео'),
                    ('processing_timeout', 'Платформа ще обробляє відео, перевіримо пізніше'),
                    ('video_not_found', 'Відео на платформі не знайдено'),
                    ('auth_revoked', 'Доступ до акаунта відкликано або він недійсний, підключіть профіль знову'),
                    ('not_connected', 'Профіль не підключено до платформи'),
                    ('secrets_unreadable', 'Не вдалося розшифрувати секрети профілю: ключ сервера SECRET_KEY змінився'),
                    ('instagram_token_missing', 'Для публікації в Instagram потрібні токен доступу Facebook Login та ID професійного акаунта Instagram'),
                    ('network', 'Проксі або платформа недоступні'),
                    ('proxy_unreachable', 'Проксі профілю недоступний'),
                    ('proxy_auth', 'Проксі не прийняв логін або пароль'),
                    ('proxy_not_public', 'Проксі профілю має бути публічною адресою: локальні, приватні та службові адреси заборонені'),
                    ('timed_out', 'Проксі або платформа не відповіли вчасно, повторимо пізніше'),
                    ('profile_deleted', 'Профіль видалено, публікація неможлива'),
                    ('file_missing', 'Файл відео не знайдено'),
                    ('gave_up', 'Публікацію не вдалося завершити після кількох спроб')) AS known (kind, words)
      WHERE sentence ~ '^(YouTube|TikTok|Instagram): '
        AND (rest = words OR (left(rest, length(words) + 2) = words || ' (' AND right(rest, 1) = ')'))
      ORDER BY length(words) DESC
      LIMIT 1),
    (SELECT CASE WHEN matched[1] IS NULL THEN jsonb_build_object('kind', 'grant_revoked')
                 ELSE jsonb_build_object('kind', 'grant_revoked', 'answer', matched[1]) END
       FROM (SELECT regexp_match(sentence, '^(?:YouTube|TikTok|Instagram): Доступ \S+ відкликано — підключіть профіль знову(?: \((.*)\))?$')
                      AS matched) AS revoked
      WHERE matched IS NOT NULL),
    (SELECT jsonb_build_object('kind', 'app_missing', 'variables', matched[1])
       FROM (SELECT regexp_match(sentence, '^(?:YouTube|TikTok|Instagram): \S+ не налаштовано на сервері: задайте (.+)$') AS matched) AS missing
      WHERE matched IS NOT NULL),
    jsonb_build_object('kind', 'unknown', 'text', sentence))
$$;

UPDATE video_posts SET (failure, failure_detail) = (SELECT f ->> 'kind', f - 'kind' FROM post_failure_of_sentence(error) AS f)
 WHERE error IS NOT NULL;
UPDATE video_posts SET wait_detail = jsonb_build_object('failure', post_failure_of_sentence(wait_detail ->> 'reason'))
 WHERE wait_kind IN ('retry', 'quota') AND wait_detail ? 'reason';

DROP FUNCTION post_failure_of_sentence(text);
ALTER TABLE video_posts DROP COLUMN error;

-- A video's failures are its failed posts': the copies its own columns kept (YouTube's in `error`)
-- go, and the API words SPEC's error, errorTiktok and errorInstagram from the posts. A copy whose
-- post is no longer in error was left by a post planned again since.
ALTER TABLE videos DROP COLUMN error, DROP COLUMN error_instagram, DROP COLUMN error_tiktok;
