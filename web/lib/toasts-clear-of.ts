import { useEffect, type RefObject } from 'react';

/** The CSS variable that holds the height a floating panel takes at the bottom right (0 when none is open). */
const RESERVED_HEIGHT = '--toasts-clear-of-height';

/**
 * Where the toasts sit: bottom right, above whatever floating panel is open there (the call panel), so a toast never
 * covers END CALL or the disposition: a rep cannot wait 4 s for a toast to go, and a hovered toast never goes.
 */
export const TOAST_OFFSET = { bottom: `calc(24px + var(${RESERVED_HEIGHT}, 0px))` };
export const TOAST_MOBILE_OFFSET = { bottom: `calc(16px + var(${RESERVED_HEIGHT}, 0px))` };

/** Keeps the toasts above the element while it is shown at the bottom right (and `enabled`). */
export function useToastsClearOf(ref: RefObject<HTMLElement | null>, enabled: boolean): void {
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const root = document.documentElement.style;
    const reserve = () => root.setProperty(RESERVED_HEIGHT, `${element.offsetHeight + 8}px`);
    reserve();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reserve);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.removeProperty(RESERVED_HEIGHT);
    };
  }, [ref, enabled]);
}
