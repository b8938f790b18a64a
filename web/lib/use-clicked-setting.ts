import { useState } from 'react';

/**
 * A setting saved on each click of a checkbox. The value clicked is shown in the click's own render and until
 * its save settles: a controlled checkbox bound only to the query cache snaps back to the old value between the
 * click and the cache's update (which TanStack Query applies a task later), so the box flickers, and a quick
 * second look at it (a person's, or a browser test's) sees the click undone.
 *
 * `click(value)` shows the value and returns the function that stops showing it (give it to the mutation's
 * onSettled); from then on the saved value shows, the server's answer or, after a refusal, the value before.
 */
export function useClickedSetting<T>(saved: T) {
  const [clicked, setClicked] = useState<{ value: T } | null>(null);
  return {
    shown: clicked ? clicked.value : saved,
    click: (value: T) => {
      setClicked({ value });
      return () => setClicked(null);
    },
  };
}
