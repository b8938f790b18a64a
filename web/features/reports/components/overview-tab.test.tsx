// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Outcomes, Overview } from '#domain/reports/overview.ts';
import { answerApi, renderWithApp } from '../../../test/render.tsx';
import { OverviewTab } from './overview-tab.tsx';

// The charts measure their box; happy-dom has no layout, so they get a fixed one.
beforeAll(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

const CONTACT = '7b0a1c7e-0000-4000-8000-0000000000c1';
const overview: Overview = {
  day: '2026-11-24',
  timeZone: 'America/New_York',
  totalCalls: 3,
  qualifiedLeads: 1,
  answeredCalls: 2,
  dispositions: [
    { disposition: 'not-interested', count: 2 },
    { disposition: 'qualified', count: 1 },
  ],
  recentCalls: [
    {
      key: 'a',
      contactId: CONTACT,
      name: 'Ann Able',
      company: 'Acme',
      disposition: 'qualified',
      at: '2026-11-24T15:05:00.000Z',
    },
    {
      key: 'b',
      contactId: null,
      name: null,
      company: null,
      disposition: null,
      at: '2026-11-24T14:00:00.000Z',
    },
    {
      key: 'c',
      contactId: '7b0a1c7e-0000-4000-8000-0000000000c2',
      name: null,
      company: null,
      disposition: 'not-interested',
      at: '2026-11-24T13:30:00.000Z',
    },
  ],
  hourly: Array.from({ length: 24 }, (_, hour) => ({
    hour,
    calls: hour === 10 ? 2 : hour === 9 ? 1 : 0,
    answered: hour === 10 ? 2 : 0,
  })),
};
const lastDay: Record<string, number> = { 'not-interested': 2, qualified: 1 };
const outcomes = (days: number): Outcomes => ({
  days: Array.from({ length: days }, (_, i) => ({
    day: `2026-11-${String(24 - days + 1 + i).padStart(2, '0')}`,
    total: i === days - 1 ? 3 : 0,
    outcomes: i === days - 1 ? lastDay : {},
  })),
});

describe('the reports overview', () => {
  it("shows the day's figures, dispositions and recent calls in the user's zone, each chart also as a table", async () => {
    let asked = 7;
    const sent = answerApi({
      'GET /api/reports/overview': { body: overview },
      'GET /api/reports/outcomes': () => ({ body: outcomes(asked) }),
    });
    renderWithApp(<OverviewTab day="2026-11-24" timeZone="America/New_York" />);

    const figures = await screen.findByLabelText('The day in figures');
    expect(figures.textContent).toContain('Total Calls3');
    expect(figures.textContent).toContain('Qualified Leads1');
    expect(figures.textContent).toContain('Answered Calls2');
    const dispositions = screen.getByRole('list', { name: 'Call Dispositions' });
    expect(
      within(dispositions)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Not Interested2', 'Qualified1']);
    const recent = within(screen.getByRole('list', { name: 'Recent Calls' })).getAllByRole('listitem');
    expect(within(recent[0]!).getByRole('link', { name: 'Ann Able' }).getAttribute('href')).toBe(
      `/contacts/${CONTACT}`,
    );
    // 15:05 UTC is 10:05 in New York; a call with no contact, and one whose contact was deleted since.
    expect(recent[0]!.textContent).toContain('10:05');
    expect(recent[1]!.textContent).toContain('Unknown contact');
    expect(recent[2]!.textContent).toContain('Deleted contact');

    const hourly = screen.getByRole('table', { name: 'Calls by hour' });
    const ten = within(hourly)
      .getAllByRole('row')
      .find((row) => row.textContent?.startsWith('10'));
    expect(ten?.textContent).toContain('22');
    expect(sent.find((r) => r.path === '/api/reports/overview')).toBeDefined();

    // The outcomes over 30 days are asked for when chosen.
    const outcomesTable = await screen.findByRole('table', { name: 'Outcomes per day' });
    await waitFor(() => expect(within(outcomesTable).getAllByRole('row')).toHaveLength(8));
    asked = 30;
    await userEvent.click(screen.getByRole('radio', { name: '30 days' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Outcomes per day' })).getAllByRole('row'),
      ).toHaveLength(31),
    );
  });

  it('says so when the overview cannot be loaded', async () => {
    answerApi({
      'GET /api/reports/overview': {
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'Unknown time zone' },
      },
    });
    renderWithApp(<OverviewTab day="2026-11-24" timeZone="Mars/Olympus" />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the overview: Unknown time zone',
    );
  });
});
