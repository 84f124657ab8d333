/** Business numbers of the product. Both sides import them from here. */

export const DAILY_STEP_MAX = 50_000;
export const DAILY_STEP_GOAL = 10_000;
export const MONTHLY_STEP_GOAL = 100_000;
export const STEPS_PER_PRIZE_ENTRY = 10_000;

export const MANUAL_STEPS_MIN = 1;
export const MANUAL_STEPS_MAX = DAILY_STEP_MAX;
export const MANUAL_NOTE_MAX_CHARS = 500;
export const MANUAL_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** The largest photo as walkers read it ("5MB"), in every sentence that names it. */
export const MANUAL_IMAGE_MAX_LABEL = `${MANUAL_IMAGE_MAX_BYTES / (1024 * 1024)}MB`;
/** The form's words when a photo is larger than that (the toast's text, as the product has it). */
export const PHOTO_TOO_LARGE_TEXT = `Please upload an image smaller than ${MANUAL_IMAGE_MAX_LABEL}`;
/** The server's answer (413) to a photo larger than that: the same words, as a sentence. */
export const PHOTO_TOO_LARGE_MESSAGE = `${PHOTO_TOO_LARGE_TEXT}.`;
/** Per walker and London day (the day the entries are sent, whatever dates they are for). */
export const MANUAL_ENTRIES_PER_DAY_MAX = 10;
/** Stored photo bytes per walker and London day (a photo is stored no larger than it was sent). */
export const MANUAL_PHOTO_BYTES_PER_DAY_MAX = 20 * 1024 * 1024;

/** How far back a day may still be synced, and how long the device keeps it. */
export const STEP_HISTORY_DAYS = 30;

export const JOIN_CODE_LENGTH = 8;
export const GROUP_NAME_MAX_CHARS = 60;
export const GROUP_DESCRIPTION_MAX_CHARS = 500;

export const SESSION_TTL_DAYS = 30;

/** UI timings. */
export const TOAST_DEFAULT_DURATION_MS = 5_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
export const COPY_INDICATOR_MS = 2_000;
export const AUTH_USER_CACHE_MS = 5 * 60_000;

export const LOGIN_PATH = "/api/login";
/**
 * Sign-in that opens on the form to create an account: `prompt=create` (OpenID Connect's
 * "Initiating User Registration"), passed on to a provider that says it supports it.
 */
export const SIGN_UP_PATH = `${LOGIN_PATH}?prompt=create`;
export const LOGOUT_PATH = "/api/logout";

/** Query data nobody uses any more is dropped after this long. */
export const QUERY_CACHE_LIFETIME_MS = 5 * 60_000;
