/** App shell constants (app shell,; decision 000 "Sidebar widths"). */
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 7;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_ICON = '3rem';
export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_KEYBOARD_SHORTCUT = 'b';

export type NavItem = { label: string; to: string; adminOnly?: boolean };

/** Sidebar entries; admins also get Admin, placed before Settings. */
export function navItemsFor(isAdmin: boolean): NavItem[] {
  const items: NavItem[] = [
    { label: 'Contacts', to: '/contacts' },
    { label: 'Projects', to: '/projects' },
    { label: 'Power Dialer', to: '/power-dialer' },
    { label: 'Reports', to: '/reports' },
  ];
  if (isAdmin) items.push({ label: 'Admin', to: '/admin', adminOnly: true });
  items.push({ label: 'Settings', to: '/settings' });
  return items;
}

/** Reads the remembered open state from a Cookie header value; open when absent. */
export function sidebarOpenFromCookie(cookieHeader: string): boolean {
  const match = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SIDEBAR_COOKIE_NAME}=`));
  if (!match) return true;
  return match.slice(SIDEBAR_COOKIE_NAME.length + 1) !== 'false';
}

export type Theme = 'dark' | 'light';
export const DEFAULT_THEME: Theme = 'dark';
export const THEME_STORAGE_KEY = 'theme';

export function parseTheme(value: string | null | undefined): Theme {
  return value === 'light' || value === 'dark' ? value : DEFAULT_THEME;
}
