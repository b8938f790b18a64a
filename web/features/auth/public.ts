/** The sign-in feature as other features use it: who is signed in, and signing out. Other features import this file, never the feature's other files (decision 013). */
export { useSession } from './api/session.ts';
export { useSignOut } from './api/use-sign-out.ts';
export { browserTimeZone, useTimeZone } from './api/use-time-zone.ts';
export { changePassword } from './api/auth-requests.ts';
export { sessionQueryKey } from './api/session.ts';
