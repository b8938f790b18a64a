import type { ReactElement, ReactNode } from 'react';
import { cleanup, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
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

export function renderWithApp(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>{children}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>
  );
  return render(ui, { wrapper });
}
