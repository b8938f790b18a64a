import { Outlet } from 'react-router';
import { LogOut, PanelLeft } from 'lucide-react';
import { ActiveCallPanel, IncomingCalls } from '../calls/public.ts';
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON, SIDEBAR_WIDTH_MOBILE } from '#domain/shell/sidebar.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogTitle } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/cn.ts';
import { Brand } from '../../components/brand.tsx';
import { useSession, useSignOut } from '../auth/public.ts';
import { ThemeToggle } from '../theme/public.ts';
import { NotificationBell } from '../notifications/public.ts';
import { AppSidebarNav } from './app-sidebar.tsx';
import { useSidebarState } from './sidebar-state.ts';

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
            {profile && (profile.role === 'user' || profile.role === 'admin') && <NotificationBell />}
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
          <IncomingCalls enabled={profile?.role === 'user' || profile?.role === 'admin'} />
        </main>
      </div>
    </div>
  );
}
