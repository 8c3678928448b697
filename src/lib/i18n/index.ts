/**
 * Every Ukrainian string the product shows, in one place. Texts marked by SPEC.md are copied
 * from it, except where its drafts misspell ('Кілкість', 'Группа', 'Пороль', 'TikTiok',
 * 'Профіля'): a Ukrainian reader takes those for mistakes, so they read as spelled here. SPEC's
 * API field names (`TikTiokAuthStr`) are the contract and stay as they are.
 * The server imports this file too, through server/messages.ts, which adds the messages only the
 * server sends (its error answers), so they stay out of the browser's bundle and the rest match the
 * client's word for word.
 *
 * One module a section, gathered here: import it whole, `import * as t from '…/lib/i18n'`, and the
 * bundler keeps each section in the chunks that read it, so the login page does not download
 * every screen's words (issue 40.10). Its grammar (plurals, sizes) is in words.ts.
 */

export { app } from './app';
export { menu } from './menu';
export { home } from './home';
export { login } from './login';
export { settings } from './settings';
export { passwordFields } from './password-fields';
export { apiTokens } from './api-tokens';
export { dates } from './dates';
export { confirm } from './confirm';
export { validation } from './validation';
export { toast } from './toast';
export { accounts } from './accounts';
export { accountForm } from './account-form';
export { connections } from './connections';
export { groups } from './groups';
export { postingSlots } from './posting-slots';
export { tagSets } from './tag-sets';
export { users } from './users';
export { stats } from './stats';
export { statsScreen } from './stats-screen';
export { calendar } from './calendar';
export { calendarPosts } from './calendar-posts';
export { notifications } from './notifications';
export { videoTable } from './video-table';
export { controls } from './controls';
export { filters } from './filters';
export { postStates } from './post-states';
export { postBadges } from './post-badges';
export { videoStatus } from './video-status';
export { accountStatus } from './account-status';
export { health } from './health';
export { reach } from './reach';
export { photos } from './photos';
export { createVideo } from './create-video';
export { sourceDrop } from './source-drop';
export { requests } from './requests';
export { requestStatus } from './request-status';
export { upload } from './upload';
export { media } from './media';
export { publish } from './publish';
export { texts } from './texts';
export { published } from './published';
export { postTruth } from './post-truth';
export { spread } from './spread';
export { platform } from './platform';
export { postingCaps } from './posting-caps';
export { screens } from './screens';
export { postingRules } from './posting-rules';
export { alertEvents } from './alert-events';
export { telegram } from './telegram';
export { webhooks } from './webhooks';
export { alertTests } from './alert-tests';
export { plans } from './plans';
