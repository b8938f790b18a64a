/**
 * The messages of signing up and signing in, and the mapping of server answers to the toast a person
 * sees. Titles and descriptions are the spec's wording.
 */
export type Toast = { title: string; description?: string; destructive?: boolean };

export const AUTH_MESSAGES = {
  missingInformation: {
    title: 'Missing Information',
    description: 'Please enter both email and password.',
    destructive: true,
  },
  signUpSuccess: {
    title: 'Account Created Successfully',
    description:
      'Your account has been created and is pending admin approval. You will be notified once approved.',
  },
  signInSuccess: { title: 'Welcome back!', description: 'You have been signed in successfully.' },
  signOutSuccess: {
    title: 'Signed out successfully',
    description: 'You have been logged out of your account.',
  },
  signOutFailure: {
    title: 'Error signing out',
    description: 'There was a problem signing out. Please try again.',
    destructive: true,
  },
} satisfies Record<string, Toast>;

export const PENDING_APPROVAL_TEXT =
  'Your account is awaiting approval by an administrator. Approval typically takes 1-2 business days.';
export const DENIED_MESSAGE =
  'Your account request was denied by an administrator. Contact your administrator if you think this is a mistake.';
export const DEACTIVATED_MESSAGE = 'Your account has been deactivated by an administrator.';

/** Known answers of the authentication service, by code or by original message. */
const KNOWN: { match: (code: string, message: string) => boolean; toast: Toast }[] = [
  {
    match: (code, message) =>
      code === 'INVALID_EMAIL_OR_PASSWORD' || /invalid (login credentials|email or password)/i.test(message),
    toast: {
      title: 'Authentication Error',
      description: 'Invalid email or password. Please check your credentials and try again.',
      destructive: true,
    },
  },
  {
    match: (code, message) =>
      code === 'EMAIL_NOT_VERIFIED' || /email not (confirmed|verified)/i.test(message),
    toast: {
      title: 'Authentication Error',
      description: 'Please check your email and click the confirmation link before signing in.',
      destructive: true,
    },
  },
  {
    match: (code, message) =>
      code === 'USER_ALREADY_EXISTS' ||
      code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' ||
      /already (registered|exists)/i.test(message),
    toast: {
      title: 'Authentication Error',
      description: 'An account with this email already exists. Please sign in instead.',
      destructive: true,
    },
  },
];

/** Refusals of our own (decision 000 "Deny", rate limits): the server's message under a plain title. */
const OWN_TITLES: Record<string, string> = {
  ACCOUNT_DENIED: 'Account denied',
  ACCOUNT_DEACTIVATED: 'Account deactivated',
  RATE_LIMITED: 'Too many attempts',
};

/** Turns an authentication failure into the toast a person reads. */
export function authErrorToast(error: { code?: string | undefined; message?: string | undefined }): Toast {
  const code = error.code ?? '';
  const message = error.message ?? '';
  const known = KNOWN.find((k) => k.match(code, message));
  if (known) return known.toast;
  const ownTitle = OWN_TITLES[code];
  if (ownTitle) return { title: ownTitle, description: message, destructive: true };
  return { title: 'Error', description: message || 'An unexpected error occurred', destructive: true };
}
