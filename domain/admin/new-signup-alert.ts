/**
 * When someone signs up while an admin watches /admin, the 'New approval needed!' badge shows for 5 s and a
 * new-signup toast for 10 s (admin, constants).
 */
export const NEW_APPROVAL_BADGE_MS = 5_000;
export const NEW_SIGNUP_TOAST_MS = 10_000;

export function isNewApprovalBadgeVisible(lastSignupSeenAt: number | null, now: number): boolean {
  return lastSignupSeenAt !== null && now - lastSignupSeenAt < NEW_APPROVAL_BADGE_MS;
}

export function newSignupToast(person: { email: string; firstName: string; lastName: string }): {
  title: string;
  description: string;
} {
  const name = `${person.firstName} ${person.lastName}`.trim();
  return {
    title: 'New user signup',
    description: name
      ? `${name} (${person.email}) is waiting for approval.`
      : `${person.email} is waiting for approval.`,
  };
}
