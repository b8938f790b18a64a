import { Outlet, useNavigate } from 'react-router';
import { ActiveCallPanel } from '../calls/components/active-call-panel.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Moon, PanelLeft, Sun } from 'lucide-react';
import { toast } from 'sonner';
import { AUTH_MESSAGES } from '#domain/auth/auth-messages.ts';
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON, SIDEBAR_WIDTH_MOBILE } from '#domain/shell/sidebar.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogTitle } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/cn.ts';
import { signOut } from '../auth/api/auth-requests.ts';
import { sessionQueryKey, useSession } from '../auth/api/session.ts';
import { useTheme } from '../theme/theme-provider.tsx';
import { AppSidebarNav } from './app-sidebar.tsx';
import { useSidebarState } from './sidebar-state.ts';

export function Brand() {
  return (
    <span className="text-lg font-bold tracking-tight">
      <span className="text-primary">Call</span>
      <span>CRM</span>
    </span>
  );
}

export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={toggleTheme}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
    >
      {theme === 'dark' ? <Sun /> : <Moon />}
    </Button>
  );
}

export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    // Requests still loading would come back 401 once the session ends: cancel them first.
    await queryClient.cancelQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
    try {
      await signOut();
    } catch {
      toast.error(AUTH_MESSAGES.signOutFailure.title, {
        description: AUTH_MESSAGES.signOutFailure.description,
      });
      return;
    }
    // Signed out first, so the guard unmounts the app's screens before their data is dropped; dropping it while
    // they are mounted would make them refetch without a session.
    queryClient.setQueryData(sessionQueryKey, { profile: null, reason: 'signed-out' });
    toast.success(AUTH_MESSAGES.signOutSuccess.title, {
      description: AUTH_MESSAGES.signOutSuccess.description,
    });
    await navigate('/auth', { replace: true });
    setTimeout(
      () => queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] }),
      0,
    );
  };
}

/** The signed-in layout: sidebar (16rem, 3rem icon rail when collapsed, 18rem sheet on mobile) and header. */
export function AppShell() {
  const { data: profile } = useSession();
  const sidebar = useSidebarState();
  const handleSignOut = useSignOut();
  const isAdmin = profile?.role === 'admin';
  const desktopWidth = sidebar.open ? SIDEBAR_WIDTH : SIDEBAR_WIDTH_ICON;

  return (
    <div className="flex min-h-screen">
      {!sidebar.isMobile && (
        <aside
          data-testid="sidebar"
          data-state={sidebar.open ? 'expanded' : 'collapsed'}
          style={{ width: desktopWidth }}
          className="sticky top-0 h-screen shrink-0 border-r border-border bg-sidebar transition-[width] duration-200"
        >
          <AppSidebarNav isAdmin={isAdmin} collapsed={!sidebar.open} />
        </aside>
      )}
      {sidebar.isMobile && (
        <Dialog open={sidebar.openMobile} onOpenChange={sidebar.setOpenMobile}>
          <DialogContent
            data-testid="sidebar"
            data-state={sidebar.openMobile ? 'expanded' : 'collapsed'}
            style={{ width: SIDEBAR_WIDTH_MOBILE }}
            className="left-0 top-0 h-full max-h-screen translate-x-0 translate-y-0 rounded-none p-0 pt-10"
          >
            <DialogTitle className="sr-only">Navigation</DialogTitle>
            <AppSidebarNav
              isAdmin={isAdmin}
              collapsed={false}
              onNavigate={() => sidebar.setOpenMobile(false)}
            />
          </DialogContent>
        </Dialog>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-border bg-background/95 px-3 backdrop-blur">
          <Button
            variant="ghost"
            size="icon"
            onClick={sidebar.toggle}
            aria-label="Toggle sidebar"
            title="Toggle sidebar (Ctrl+B)"
          >
            <PanelLeft />
          </Button>
          <Brand />
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle />
            {profile && (
              <Button variant="outline" size="sm" onClick={() => void handleSignOut()}>
                <LogOut /> Log Out
              </Button>
            )}
          </div>
        </header>
        <main className={cn('flex-1 p-4 md:p-6')}>
          <Outlet />
          <ActiveCallPanel />
        </main>
      </div>
    </div>
  );
}
