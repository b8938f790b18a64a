// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Call } from '#domain/calls/call.schema.ts';
import { DEFAULT_QUEUE_ID } from '#domain/contacts/queue.schema.ts';
import type { WalkStep } from '#domain/dialer/queue-walk.ts';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { closeActiveCall } from '../../calls/public.ts';
import { BrowserDialerModal } from './browser-dialer-modal.tsx';

const QUEUE = '00000000-0000-4000-8000-0000000000d1';
const ANN = '00000000-0000-4000-8000-0000000000a1';
const BO = '00000000-0000-4000-8000-0000000000b2';
const queue = (completed: number) => ({
  id: QUEUE,
  queueId: DEFAULT_QUEUE_ID,
  name: 'All Synced Contacts',
  total: 3,
  completed,
  createdAt: '2026-11-24T09:00:00.000Z',
  projectId: null,
  filling: null,
});
const person = (id: string, firstName: string, phone: string | null) => ({
  id,
  firstName,
  lastName: 'Walker',
  phone,
  email: `${firstName.toLowerCase()}@example.com`,
  company: 'Acme',
  title: null,
});
const call = (status: Call['status'], over: Partial<Call> = {}): Call => ({
  id: 'call-1',
  contactId: ANN,
  requestId: 'abcd1234',
  provider: 'simulator',
  from: '+15550100000',
  to: '+15550100017',
  status,
  error: null,
  startedAt: new Date().toISOString(),
  answeredAt: null,
  endedAt: null,
  durationSeconds: null,
  answeredBy: null,
  abandonedAt: null,
  fromPlace: null,
  direction: 'outbound',
  recorded: false,
  recordingDisclosure: null,
  voicemailLeft: null,
  ...over,
});

// The tab's live call and walker id are the page's own state: each test starts with neither.
beforeEach(() => {
  sessionStorage.clear();
  closeActiveCall();
});

describe("the browser dialer's walk through a queue", () => {
  it('offers the next contact, calls it for the queue, asks for the disposition, and moves on to the next one', async () => {
    let step: WalkStep = {
      queue: queue(1),
      contact: person(ANN, 'Ann', '+15550100017'),
      skipped: [{ contactId: 'x', name: 'Cy Walker', reason: 'no-phone', text: 'No phone number' }],
      heldElsewhere: 0,
      waiting: null,
    };
    let live = call('initiated');
    const sent = answerApi({
      'GET /api/calls/setup': {
        body: { provider: 'simulator', callerIds: [], defaultFrom: '+15550100000', localPresence: true },
      },
      'GET /api/queues': { body: { queues: [queue(1)] } },
      [`POST /api/queues/${QUEUE}/walk`]: () => ({ body: step }),
      [`POST /api/queues/${QUEUE}/walk/release`]: { body: { queue: queue(2) } },
      [`GET /api/queues/${QUEUE}/members`]: { body: { members: [], next: null } },
      'POST /api/calls': () => ({ status: 201, body: { call: live } }),
      'GET /api/calls/call-1': () => ({ body: { call: live } }),
      'POST /api/dispositions': (body) => {
        step = {
          queue: queue(2),
          contact: person(BO, 'Bo', '+15550100027'),
          skipped: [],
          heldElsewhere: 0,
          waiting: null,
        };
        return {
          status: 201,
          body: {
            disposition: {
              id: 'd1',
              callId: 'call-1',
              contactId: ANN,
              disposition: (body as { disposition: string }).disposition,
              notes: null,
              isQualified: false,
              callbackDate: null,
              calledAt: new Date().toISOString(),
              callDurationSeconds: 0,
              queueId: QUEUE,
            },
          },
        };
      },
    });
    renderWithApp(<BrowserDialerModal open onOpenChange={() => undefined} queue={null} />);

    expect(await screen.findByText('Queue: 2 remaining')).toBeTruthy();
    expect(await screen.findByText('Skipped Cy Walker')).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('Phone status').textContent).toBe('Ready'));
    await userEvent.click(await screen.findByRole('button', { name: 'Call Ann Walker' }));
    await waitFor(
      () =>
        expect(sent.find((r) => r.method === 'POST' && r.path === '/api/calls')?.body).toMatchObject({
          contactId: ANN,
          queueId: QUEUE,
        }),
      { timeout: 5000 },
    );

    // The call is not answered and ends: the disposition is asked for all the same.
    live = call('no-answer', { endedAt: new Date().toISOString(), durationSeconds: 0 });
    const form = await screen.findByRole('radio', { name: 'No Answer' }, { timeout: 5000 });
    await userEvent.click(form);
    await userEvent.click(screen.getByRole('button', { name: 'Save disposition' }));
    await waitFor(() =>
      expect(sent.find((r) => r.path === '/api/dispositions')?.body).toMatchObject({
        contactId: ANN,
        callId: 'call-1',
        disposition: 'no-answer',
        queueId: QUEUE,
      }),
    );

    // The next contact of the queue is offered.
    expect(await screen.findByRole('button', { name: 'Call Bo Walker' })).toBeTruthy();
    expect(screen.getByText('Queue: 1 remaining')).toBeTruthy();
  });

  it('says the queue is done and offers Start over', async () => {
    const sent = answerApi({
      'GET /api/calls/setup': {
        body: { provider: 'simulator', callerIds: [], defaultFrom: '+15550100000', localPresence: true },
      },
      [`POST /api/queues/${QUEUE}/walk`]: {
        body: { queue: queue(3), contact: null, skipped: [], heldElsewhere: 0, waiting: null },
      },
      [`POST /api/queues/${QUEUE}/restart`]: { body: { queue: queue(0) } },
    });
    renderWithApp(
      <BrowserDialerModal open onOpenChange={() => undefined} queue={{ id: QUEUE, name: 'Walk' }} />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Queue: 0 remaining')).toBeTruthy();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Start over' }));
    await waitFor(() => expect(sent.some((r) => r.path === `/api/queues/${QUEUE}/restart`)).toBe(true));
  });

  it('says how many contacts wait for their calling hours, and why, instead of saying the queue is done', async () => {
    answerApi({
      'GET /api/calls/setup': {
        body: { provider: 'simulator', callerIds: [], defaultFrom: '+15550100000', localPresence: true },
      },
      [`POST /api/queues/${QUEUE}/walk`]: {
        body: {
          queue: queue(2),
          contact: null,
          skipped: [],
          heldElsewhere: 0,
          waiting: {
            count: 2,
            reason: 'Not now: it is 7:42 am in Denver (calling hours 8:00–21:00)',
            nextAt: '2026-11-25T15:00:00.000Z',
          },
        },
      },
    });
    renderWithApp(
      <BrowserDialerModal open onOpenChange={() => undefined} queue={{ id: QUEUE, name: 'Walk' }} />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText(
        /^2 contacts are waiting: Not now: it is 7:42 am in Denver \(calling hours 8:00–21:00\)\. The next may be called at \d{1,2}:00 [AP]M\.$/,
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText('All contacts have been called')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Start over' })).toBeNull();
  });
});
