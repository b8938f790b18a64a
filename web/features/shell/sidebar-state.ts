import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import {
  MOBILE_BREAKPOINT_PX,
  SIDEBAR_COOKIE_MAX_AGE_SECONDS,
  SIDEBAR_COOKIE_NAME,
  SIDEBAR_KEYBOARD_SHORTCUT,
  sidebarOpenFromCookie,
} from '#domain/shell/sidebar.ts';

const mobileQuery = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

export function useIsMobile(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(mobileQuery);
      media.addEventListener('change', notify);
      return () => media.removeEventListener('change', notify);
    },
    () => window.matchMedia(mobileQuery).matches,
  );
}

/**
 * The sidebar's open state (app shell): remembered in a cookie for 7 days, toggled by the header
 * button or Ctrl/Cmd+B. On mobile the sidebar is a sheet with its own open state, closed by default.
 */
export function useSidebarState() {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => sidebarOpenFromCookie(document.cookie));
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((next: boolean) => {
    setOpenState(next);
    document.cookie = `${SIDEBAR_COOKIE_NAME}=${next}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_SECONDS}; samesite=lax`;
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((v) => !v);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [toggle]);

  return { isMobile, open, openMobile, setOpenMobile, toggle };
}
