/** Authentication as the rest of the server uses it: the sign-in service, its cookies' scheme, pruning old attempts. Other modules import this file, never the module's other files (decision 013). */
export { resolveViewer } from './viewer.ts';
export { deleteSessionsOf } from './auth-accounts.repository.ts';
export { pruneAuthAttempts } from './auth-attempts.repository.ts';
export { withRequestScheme } from './auth-cookies.ts';
export { type Auth, resetLinkCapture, SESSION_COOKIE_PREFIX } from './auth.ts';
