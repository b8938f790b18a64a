import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Bell } from 'lucide-react';
import { toast } from 'sonner';
import type { Notification } from '#domain/notifications/notification.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { cn } from '../../../lib/cn.ts';
import { useMarkRead, useNotifications } from '../api/notifications-queries.ts';

/**
 * The header's bell: the unread count, the latest notifications (a callback due, a campaign finished or
 * failed, a sign-up waiting), each opening what it is about; a new one arriving while the app is open also shows as
 * a toast.
 */
export function NotificationBell() {
  const notifications = useNotifications();
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const list = notifications.data?.pages.flatMap((p) => p.notifications) ?? [];
  const unread = notifications.data?.pages[0]?.unread ?? 0;
  useToastForNewArrivals(list, notifications.isSuccess);

  const open = (n: Notification) => {
    if (!n.read) markRead.mutate([n.id]);
    if (n.link) void navigate(n.link);
  };
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} title={label} className="relative">
          <Bell />
          {unread > 0 && (
            <span
              aria-hidden
              className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-destructive px-1 text-[10px] leading-4 font-semibold text-destructive-foreground"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80">
        <div className="flex items-center justify-between px-2 py-1.5">
          <span className="text-sm font-semibold">Notifications</span>
          {unread > 0 && (
            <Button variant="ghost" size="sm" onClick={() => markRead.mutate(undefined)}>
              Mark all as read
            </Button>
          )}
        </div>
        {notifications.isError ? (
          <p role="alert" className="px-2 py-3 text-sm text-destructive">
            Could not load notifications: {notifications.error.message}
          </p>
        ) : list.length === 0 ? (
          <p className="px-2 py-3 text-sm text-muted-foreground">Nothing yet.</p>
        ) : (
          <div className="max-h-96 overflow-y-auto">
            {list.map((n) => (
              <DropdownMenuItem
                key={n.id}
                onSelect={() => open(n)}
                className="flex flex-col items-start gap-0.5"
              >
                <span className={cn('text-sm', !n.read && 'font-semibold')}>
                  {!n.read && <span className="sr-only">Unread: </span>}
                  {n.title}
                </span>
                <span className="line-clamp-2 text-xs text-muted-foreground">{n.body}</span>
                <span className="text-xs text-muted-foreground">{formatMoment(n.createdAt)}</span>
              </DropdownMenuItem>
            ))}
            {notifications.hasNextPage && (
              <DropdownMenuItem
                onSelect={(event) => {
                  event.preventDefault();
                  void notifications.fetchNextPage();
                }}
              >
                Show more
              </DropdownMenuItem>
            )}
          </div>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A toast for each unread notification that arrives after the app opened (not for those already there). */
function useToastForNewArrivals(list: Notification[], loaded: boolean) {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!loaded) return;
    if (seen.current === null) {
      seen.current = new Set(list.map((n) => n.id));
      return;
    }
    for (const n of list) {
      if (seen.current.has(n.id)) continue;
      seen.current.add(n.id);
      if (!n.read) toast(n.title, { description: n.body });
    }
  }, [list, loaded]);
}
