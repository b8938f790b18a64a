import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { createQueryClient } from '../lib/query-client.ts';
import { TOAST_MOBILE_OFFSET, TOAST_OFFSET } from '../lib/toasts-clear-of.ts';
import { ThemeProvider, useTheme } from '../features/theme/theme-provider.tsx';
import { useSession } from '../features/auth/api/session.ts';
import { RealtimeConnection } from '../features/realtime/use-change-events.ts';

function ThemedToaster() {
  const { theme } = useTheme();
  return (
    <Toaster
      theme={theme}
      richColors
      closeButton
      position="bottom-right"
      offset={TOAST_OFFSET}
      mobileOffset={TOAST_MOBILE_OFFSET}
    />
  );
}

function LiveUpdates() {
  const { data: profile } = useSession();
  return <RealtimeConnection viewerId={profile?.id ?? null} />;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <LiveUpdates />
        <ThemedToaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
