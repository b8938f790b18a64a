import { apiFetch } from '../../../lib/api-client.ts';

/** Calls to the authentication endpoints (better-auth under /api/auth). */
export function signInWithEmail(email: string, password: string) {
  return apiFetch('/api/auth/sign-in/email', { method: 'POST', body: { email, password } });
}

export function signUpWithEmail(email: string, password: string) {
  return apiFetch('/api/auth/sign-up/email', { method: 'POST', body: { email, password, name: '' } });
}

export function signOut() {
  return apiFetch('/api/auth/sign-out', { method: 'POST', body: {} });
}

export function requestPasswordReset(email: string) {
  return apiFetch('/api/auth/request-password-reset', {
    method: 'POST',
    body: { email, redirectTo: '/reset-password' },
  });
}

export function resetPassword(token: string, newPassword: string) {
  return apiFetch('/api/auth/reset-password', { method: 'POST', body: { token, newPassword } });
}

export function fetchSystemStatus() {
  return apiFetch<{ systemMailConfigured: boolean }>('/api/system/status');
}

/** Settings → Profile: needs the current password; the server signs out the user's other sessions. */
export function changePassword(currentPassword: string, newPassword: string) {
  return apiFetch('/api/auth/change-password', {
    method: 'POST',
    body: { currentPassword, newPassword, revokeOtherSessions: true },
  });
}
