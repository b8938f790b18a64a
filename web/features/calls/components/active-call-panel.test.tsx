// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Call } from '#domain/calls/call.schema.ts';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { callTarget } from '../active-call.ts';
import { ActiveCallPanel } from './active-call-panel.tsx';

const CONTACT = '7b0a1c7e-0000-4000-8000-000000000002';
const started = new Date(Date.now() - 5_000).toISOString();
const call = (over: Partial<Call>): Call => ({
  id: 'c1',
  contactId: CONTACT,
  requestId: 'abcd1234',
  provider: 'simulator',
  from: '+15550100000',
  to: '+15550109999',
  status: 'initiated',
  error: null,
  startedAt: started,
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

describe('the call panel', () => {
  it('follows a call from connected to ended, ends it on END CALL, asks for the disposition and closes once saved', async () => {
    let live = call({ status: 'in-progress', answeredAt: new Date(Date.now() - 3_000).toISOString() });
    const sent = answerApi({
      'POST /api/calls': { status: 201, body: { call: call({}) } },
      'GET /api/calls/c1': () => ({ body: { call: live } }),
      'POST /api/calls/c1/hangup': () => {
        live = call({
          status: 'completed',
          answeredAt: live.answeredAt,
          endedAt: new Date().toISOString(),
          durationSeconds: 4,
        });
        return { body: {} };
      },
      'POST /api/dispositions': (body) => ({
        body: {
          disposition: {
            id: 'd1',
            callId: 'c1',
            contactId: CONTACT,
            disposition: (body as { disposition: string }).disposition,
            notes: null,
            isQualified: false,
            callbackDate: null,
            calledAt: started,
            callDurationSeconds: 4,
            queueId: null,
          },
        },
      }),
    });
    renderWithApp(<ActiveCallPanel />);
    expect(screen.queryByRole('region', { name: 'Current call' })).toBeNull();

    await act(() =>
      callTarget(
        { contactId: CONTACT, name: 'Ada Lovelace', phone: '5550109999' },
        { provider: 'simulator', from: null },
      ),
    );
    const panel = await screen.findByRole('region', { name: 'Current call' });
    expect(within(panel).getByText('Ada Lovelace')).toBeTruthy();
    await waitFor(() => expect(within(panel).getByLabelText('Call time').textContent).toMatch(/^0:0[3-9]$/));

    await userEvent.click(within(panel).getByRole('button', { name: /END CALL/ }));
    await waitFor(() => expect(within(panel).queryByRole('button', { name: /END CALL/ })).toBeNull());
    expect(within(panel).getByLabelText('Call time').textContent).toBe('0:04');
    expect(within(panel).getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(await screen.findByText('Please select a disposition and save the call log')).toBeTruthy();

    await userEvent.click(within(panel).getByRole('radio', { name: 'Voicemail' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save disposition' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Current call' })).toBeNull());
    expect(sent.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/calls/c1/hangup');
    expect(sent.find((r) => r.path === '/api/dispositions')?.body).toMatchObject({
      contactId: CONTACT,
      callId: 'c1',
      disposition: 'voicemail',
      callDurationSeconds: 4,
    });
  });
});
