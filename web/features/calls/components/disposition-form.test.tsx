// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { todayIn } from '../../../lib/zoned-days.ts';
import { DispositionForm } from './disposition-form.tsx';

const CONTACT = '7b0a1c7e-0000-4000-8000-000000000001';
const CALL = '7b0a1c7e-0000-4000-8000-0000000000c1';

const saved = (body: unknown) => ({
  body: {
    disposition: {
      id: 'd1',
      callId: CALL,
      contactId: CONTACT,
      disposition: (body as { disposition: string }).disposition,
      notes: null,
      isQualified: false,
      callbackDate: null,
      calledAt: new Date().toISOString(),
      callDurationSeconds: 42,
      queueId: null,
    },
  },
});

function form(onSaved = vi.fn()) {
  renderWithApp(<DispositionForm contactId={CONTACT} callId={CALL} durationSeconds={42} onSaved={onSaved} />);
  return onSaved;
}

const inDays = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('the disposition form', () => {
  it('proposes Voicemail for a call a machine answered, and the rep may choose another before saving', async () => {
    const sent = answerApi({ 'POST /api/dispositions': saved });
    const onSaved = vi.fn();
    renderWithApp(
      <DispositionForm
        contactId={CONTACT}
        callId={CALL}
        durationSeconds={42}
        onSaved={onSaved}
        suggested="voicemail"
      />,
    );
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Voicemail' }).checked).toBe(true);
    expect(screen.getByText('Proposed from the call: Voicemail. Choose another to change it.')).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: 'Answered' }));
    expect(screen.queryByText(/Proposed from the call/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save disposition' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({ disposition: 'answered' });
  });

  it('offers Save only once a disposition is chosen, then saves it with notes, lead and the call', async () => {
    const sent = answerApi({ 'POST /api/dispositions': saved });
    const onSaved = form();
    expect(screen.queryByRole('button', { name: 'Save disposition' })).toBeNull();

    await userEvent.click(screen.getByRole('radio', { name: 'Answered' }));
    await userEvent.type(screen.getByLabelText('Notes'), 'Asked for a demo');
    await userEvent.selectOptions(screen.getByLabelText('Lead'), 'warm');
    await userEvent.click(screen.getByRole('button', { name: 'Save disposition' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(sent.filter((r) => r.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/dispositions',
        body: {
          contactId: CONTACT,
          callId: CALL,
          disposition: 'answered',
          notes: 'Asked for a demo',
          qualification: 'warm',
          callbackDate: null,
          callDurationSeconds: 42,
        },
      },
    ]);
  });

  it("asks a call-back for its date, never one in the past, and sends 9:00 of that day in the user's zone", async () => {
    const sent = answerApi({
      'POST /api/dispositions': saved,
      'GET /api/session': {
        body: {
          profile: {
            id: 'u1',
            email: 'rep@example.com',
            firstName: 'Rep',
            lastName: '',
            role: 'user',
            deactivated: false,
            createdAt: new Date().toISOString(),
            timeZone: 'Asia/Tokyo',
            phoneCountry: 'US',
          },
          reason: null,
        },
      },
    });
    const onSaved = form();
    await userEvent.click(screen.getByRole('radio', { name: 'Call Back' }));
    expect(screen.queryByRole('button', { name: 'Save disposition' })).toBeNull();

    const date = screen.getByLabelText('Callback date');
    await waitFor(() => expect(date).toHaveProperty('min', todayIn('Asia/Tokyo')));
    await userEvent.type(date, inDays(-2));
    expect(screen.queryByRole('button', { name: 'Save disposition' })).toBeNull();

    await userEvent.clear(date);
    await userEvent.type(date, inDays(3));
    await userEvent.click(screen.getByRole('button', { name: 'Save disposition' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    const body = sent.find((r) => r.method === 'POST')!.body as { disposition: string; callbackDate: string };
    expect(body.disposition).toBe('call-back');
    // 9:00 in Tokyo is midnight UTC of the same day.
    expect(new Date(body.callbackDate).toISOString()).toBe(`${inDays(3)}T00:00:00.000Z`);
  });

  it('keeps the form when the server refuses, so nothing typed is lost', async () => {
    answerApi({
      'POST /api/dispositions': {
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'Choose a callback date' },
      },
    });
    const onSaved = form();
    await userEvent.click(screen.getByRole('radio', { name: 'Busy' }));
    await userEvent.type(screen.getByLabelText('Notes'), 'Try after lunch');
    await userEvent.click(screen.getByRole('button', { name: 'Save disposition' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save disposition' })).toHaveProperty('disabled', false),
    );
    expect(onSaved).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Notes')).toHaveProperty('value', 'Try after lunch');
    expect(screen.getByRole('radio', { name: 'Busy' })).toHaveProperty('checked', true);
  });
});
