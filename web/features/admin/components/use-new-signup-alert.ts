import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  isNewApprovalBadgeVisible,
  NEW_APPROVAL_BADGE_MS,
  NEW_SIGNUP_TOAST_MS,
  newSignupToast,
} from '#domain/admin/new-signup-alert.ts';
import { pendingUsersQueryOptions } from '../api/admin-queries.ts';
import { onChangeEvent } from '../../realtime/public.ts';

/**
 * While an admin watches /admin, a new sign-up shows the 'New approval needed!' badge for 5 s and a toast for 10 s
 * Without a reload.
 */
export function useNewSignupAlert(now: () => number = Date.now): boolean {
  const [lastSignupAt, setLastSignupAt] = useState<number | null>(null);
  const [, rerender] = useState(0);
  const queryClient = useQueryClient();

  useEffect(
    () =>
      onChangeEvent((event) => {
        if (event.topic !== 'profiles' || event.op !== 'INSERT' || event.role !== 'pending') return;
        setLastSignupAt(now());
        void queryClient.fetchQuery(pendingUsersQueryOptions).then((users) => {
          const person = users.find((u) => u.id === event.id);
          const t = newSignupToast(person ?? { email: 'A new user', firstName: '', lastName: '' });
          toast.info(t.title, { description: t.description, duration: NEW_SIGNUP_TOAST_MS });
        });
      }),
    [now, queryClient],
  );

  // Re-render when the badge's time is up.
  useEffect(() => {
    if (lastSignupAt === null) return;
    const timer = setTimeout(
      () => rerender((n) => n + 1),
      Math.max(0, lastSignupAt + NEW_APPROVAL_BADGE_MS - now()) + 20,
    );
    return () => clearTimeout(timer);
  }, [lastSignupAt, now]);

  return isNewApprovalBadgeVisible(lastSignupAt, now());
}
