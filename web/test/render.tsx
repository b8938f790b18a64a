import type { ReactElement, ReactNode } from 'react';
import { cleanup, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, vi } from 'vitest';

/*
 * Component tests render a screen part with what the app gives it (a query client, a router) and answer its API
 * requests from a table, recording what it sent. The server itself is tested against PostgreSQL elsewhere; here
 * the question is what the component does with answers.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

export type SentRequest = { method: string; path: string; body: unknown };
type Answer = { status?: number; body: unknown } | ((body: unknown) => { status?: number; body: unknown });

/** Stubs fetch: `answers` maps 'METHOD /path' to an answer; anything else is a 404. Returns what was sent. */
export function answerApi(answers: Record<string, Answer>): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = input.split('?')[0]!;
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      sent.push({ method, path, body });
      const entry = answers[`${method} ${path}`];
      const answer = typeof entry === 'function' ? entry(body) : entry;
      if (!answer)
        return Response.json(
          { code: 'NOT_FOUND', message: `No answer for ${method} ${path}` },
          { status: 404 },
        );
      return Response.json(answer.body, { status: answer.status ?? 200 });
    }),
  );
  return sent;
}

/**
 * Renders `ui` as the app would: a query client, a router, the toasts. `at` opens it at an address, matched against
 * `route` (a screen reading its params: `{ at: '/projects/sms/edit/c1', route: '/projects/sms/edit/:id' }`).
 */
export function renderWithApp(ui: ReactElement, options: { at?: string; route?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[options.at ?? '/']}>
        {options.route ? (
          <Routes>
            <Route path={options.route} element={children} />
            <Route path="*" element={<p>Left the screen</p>} />
          </Routes>
        ) : (
          children
        )}
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>
  );
  return { ...render(ui, { wrapper }), queryClient };
}
