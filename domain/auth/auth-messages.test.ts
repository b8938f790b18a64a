import { describe, expect, it } from 'vitest';
import { authErrorToast } from './auth-messages.ts';

describe('authErrorToast', () => {
  it('translates invalid credentials', () => {
    const expected = {
      title: 'Authentication Error',
      description: 'Invalid email or password. Please check your credentials and try again.',
      destructive: true,
    };
    expect(
      authErrorToast({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }),
    ).toEqual(expected);
    expect(authErrorToast({ message: 'Invalid login credentials' })).toEqual(expected);
  });

  it('translates an unconfirmed e-mail', () => {
    expect(authErrorToast({ message: 'Email not confirmed' }).description).toBe(
      'Please check your email and click the confirmation link before signing in.',
    );
  });

  it('translates an existing account', () => {
    expect(
      authErrorToast({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', message: 'User already exists' })
        .description,
    ).toBe('An account with this email already exists. Please sign in instead.');
    expect(authErrorToast({ message: 'User already registered' }).title).toBe('Authentication Error');
  });

  it('shows denied, deactivated and rate-limited refusals with their own titles and the server message', () => {
    expect(authErrorToast({ code: 'ACCOUNT_DENIED', message: 'denied text' })).toEqual({
      title: 'Account denied',
      description: 'denied text',
      destructive: true,
    });
    expect(authErrorToast({ code: 'ACCOUNT_DEACTIVATED', message: 'x' }).title).toBe('Account deactivated');
    expect(authErrorToast({ code: 'RATE_LIMITED', message: 'y' }).title).toBe('Too many attempts');
  });

  it('shows other errors under Error with their message, or the generic text', () => {
    expect(authErrorToast({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short' })).toEqual({
      title: 'Error',
      description: 'Password too short',
      destructive: true,
    });
    expect(authErrorToast({})).toEqual({
      title: 'Error',
      description: 'An unexpected error occurred',
      destructive: true,
    });
  });
});
