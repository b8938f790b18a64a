import { describe, expect, it } from 'vitest';
import { navItemsFor, parseTheme, sidebarOpenFromCookie, SIDEBAR_COOKIE_MAX_AGE_SECONDS } from './sidebar.ts';

describe('app shell rules', () => {
  it('lists the sidebar entries, with Admin before Settings for admins only', () => {
    expect(navItemsFor(false).map((i) => i.label)).toEqual([
      'Contacts',
      'Projects',
      'Power Dialer',
      'Reports',
      'Settings',
    ]);
    expect(navItemsFor(true).map((i) => i.label)).toEqual([
      'Contacts',
      'Projects',
      'Power Dialer',
      'Reports',
      'Admin',
      'Settings',
    ]);
  });

  it('reads the remembered sidebar state from the cookie, open when absent', () => {
    expect(sidebarOpenFromCookie('')).toBe(true);
    expect(sidebarOpenFromCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(sidebarOpenFromCookie('sidebar_state=true')).toBe(true);
    expect(SIDEBAR_COOKIE_MAX_AGE_SECONDS).toBe(7 * 24 * 3600);
  });

  it('defaults to the dark theme for anything but a stored light or dark', () => {
    expect(parseTheme(null)).toBe('dark');
    expect(parseTheme('light')).toBe('light');
    expect(parseTheme('purple')).toBe('dark');
  });
});
