// @vitest-environment happy-dom
import type { ReactNode } from 'react';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WalkStep } from '#domain/dialer/queue-walk.ts';
import { answerApi } from '../../test/render.tsx';
import { useQueueWalk } from './use-queue-walk.ts';

const QUEUE = '00000000-0000-4000-8000-0000000000a1';
const queue = (completed: number) => ({
  id: QUEUE,
  queueId: 'queue-x',
  name: 'Walk',
  total: 3,
  completed,
  createdAt: '2026-11-24T09:00:00.000Z',
  projectId: null,
  filling: null,
});
const contact = (id: string) => ({
  id,
  firstName: id,
  lastName: 'Example',
  phone: '+15550100001',
  email: `${id}@example.com`,
  company: null,
  title: null,
});

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}

beforeEach(() => sessionStorage.clear());

describe("a dialer's walk through a queue", () => {
  it('shows the held contact with the true remaining count, lists skipped contacts with why, and keeps one walker id per tab', async () => {
    const steps: WalkStep[] = [
      {
        queue: queue(1),
        contact: contact('ann'),
        skipped: [{ contactId: 'bo', name: 'Bo Example', reason: 'no-phone', text: 'No phone number' }],
        heldElsewhere: 0,
        waiting: null,
      },
    ];
    const sent = answerApi({ [`POST /api/queues/${QUEUE}/walk`]: () => ({ body: steps[0] }) });
    const { result } = renderHook(() => useQueueWalk(QUEUE), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.contact?.id).toBe('ann'));
    expect(result.current.remaining).toBe(2);
    expect(result.current.skipped).toEqual([
      { contactId: 'bo', name: 'Bo Example', reason: 'no-phone', text: 'No phone number' },
    ]);
    expect(await screen.findByText('Skipped Bo Example')).toBeTruthy();
    const walker = (sent[0]!.body as { walker: string }).walker;
    expect(walker).toMatch(/^[0-9a-f-]{36}$/);
    expect(sessionStorage.getItem('dialer-walker')).toBe(walker);
  });

  it('says Queue completed once when Mark as Completed finishes the queue, and Save & Exit lets the contact go', async () => {
    const sent = answerApi({
      [`POST /api/queues/${QUEUE}/walk`]: () => ({
        body: { queue: queue(2), contact: contact('cy'), skipped: [], heldElsewhere: 0, waiting: null },
      }),
      [`POST /api/queues/${QUEUE}/walk/complete`]: () => ({
        body: { queue: queue(3), contact: null, skipped: [], heldElsewhere: 0, waiting: null },
      }),
      [`POST /api/queues/${QUEUE}/walk/release`]: () => ({ body: { queue: queue(3) } }),
    });
    const { result } = renderHook(() => useQueueWalk(QUEUE), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.contact?.id).toBe('cy'));
    await act(() => result.current.markCompleted('cy'));
    await waitFor(() => expect(result.current.finished).toBe(true));
    expect(await screen.findByText('Queue completed')).toBeTruthy();
    expect(sent.find((r) => r.path.endsWith('/complete'))?.body).toMatchObject({ contactId: 'cy' });

    await act(() => result.current.saveAndExit());
    expect(await screen.findByText('You can resume this queue later.')).toBeTruthy();
    expect(sent.some((r) => r.path.endsWith('/release'))).toBe(true);
  });

  it('reports a deleted queue', async () => {
    answerApi({});
    const { result } = renderHook(() => useQueueWalk(QUEUE), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.deleted).toBe(true));
    expect(result.current.contact).toBeNull();
  });
});
