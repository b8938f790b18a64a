import { NavLink } from 'react-router';
import {
  BarChart3,
  FolderKanban,
  PhoneCall,
  Settings,
  ShieldCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { navItemsFor } from '#domain/shell/sidebar.ts';
import { cn } from '../../lib/cn.ts';

const ICONS: Record<string, LucideIcon> = {
  '/contacts': Users,
  '/projects': FolderKanban,
  '/power-dialer': PhoneCall,
  '/reports': BarChart3,
  '/admin': ShieldCheck,
  '/settings': Settings,
};

/** The navigation entries; `collapsed` shows the icon rail. */
export function AppSidebarNav({
  isAdmin,
  collapsed,
  onNavigate,
}: {
  isAdmin: boolean;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  return (
    <nav aria-label="Main" className="flex flex-col gap-1 p-2">
      {navItemsFor(isAdmin).map((item) => {
        const Icon = ICONS[item.to] ?? Users;
        return (
          <NavLink
            key={item.to}
            to={item.to}
            onClick={onNavigate}
            title={collapsed ? item.label : undefined}
            className={({ isActive }) =>
              cn(
                'flex h-9 items-center gap-3 rounded-md px-2 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-accent-foreground',
                isActive && 'bg-accent text-accent-foreground',
                collapsed && 'justify-center px-0',
              )
            }
          >
            <Icon className="size-4 shrink-0" aria-hidden />
            <span className={cn(collapsed && 'sr-only')}>{item.label}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}
