// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from '#domain/notifications/notification.schema.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { NotificationSettingsCard } from './notification-settings-card.tsx';

/**
 * A server whose answers come when the test says: each request waits until `next(method)` answers it. A read
 * answers what was saved when it arrived; a write is saved when it is answered, so a read can be made to start
 * before a write is done and land after it.
 */
function heldServer() {
  let saved: NotificationSettings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  const waiting: { method: string; answer: () => void }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (!input.startsWith('/api/notification-settings')) return Response.json({}, { status: 404 });
      const seen = { ...saved };
      return new Promise<Response>((resolve) => {
        waiting.push({
          method,
          answer: () => {
            if (method === 'PUT')
              saved = { ...saved, ...(JSON.parse(init.body as string) as NotificationSettings) };
            resolve(Response.json({ settings: method === 'PUT' ? saved : seen, emailAvailable: false }));
          },
        });
      });
    }),
  );
  const arrived = (method: string) =>
    waitFor(() => expect(waiting.some((w) => w.method === method)).toBe(true));
  const next = async (method: string) => {
    await arrived(method);
    const at = waiting.findIndex((w) => w.method === method);
    const [request] = waiting.splice(at, 1);
    await act(async () => request!.answer());
  };
  return { arrived, next };
}

const box = () => screen.getByRole<HTMLInputElement>('checkbox', { name: 'Callbacks due in the app' });

describe('Settings → Notifications', () => {
  it('shows a click at once and keeps it while the save is on its way, whatever a refetch brings meanwhile', async () => {
    const server = heldServer();
    const { queryClient } = renderWithApp(<NotificationSettingsCard />);
    await server.next('GET');
    expect(box().checked).toBe(true);

    fireEvent.click(box());
    expect(box().checked).toBe(false);

    // A realtime change refetches the settings while the write is on its way; the read answers first, with
    // what was saved before the write.
    await act(async () => void queryClient.invalidateQueries({ queryKey: ['notifications'] }));
    await server.next('GET');
    expect(box().checked).toBe(false);

    await server.next('PUT');
    await screen.findByText('Notification settings saved');
    expect(box().checked).toBe(false);
  });

  it('a read started before the save is done and answered after it does not bring the old value back', async () => {
    const server = heldServer();
    const { queryClient } = renderWithApp(<NotificationSettingsCard />);
    await server.next('GET');

    fireEvent.click(box());
    await act(async () => void queryClient.invalidateQueries({ queryKey: ['notifications'] }));
    await server.arrived('GET');
    await server.next('PUT');
    await waitFor(() => expect(box().disabled).toBe(false));
    await server.next('GET');
    expect(box().checked).toBe(false);
    expect(
      queryClient.getQueryData<{ settings: NotificationSettings }>(['notifications', 'settings'])?.settings,
    ).toMatchObject({ callbacksApp: false });
  });
});
