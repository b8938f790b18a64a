import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiFetch, ApiError } from './api-client.ts';

/** A server that never answers: the fetch only ends when its signal aborts, as the browser's does. */
function silentServer() {
  const fetchMock = vi.fn(
    (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('the API client', () => {
  it('gives up on a server that does not answer, with a TIMEOUT error that says so', async () => {
    silentServer();
    const error = await apiFetch('/api/contacts', { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect((error as ApiError).message).toMatch(/did not answer/);
  });

  it('still lets the caller cancel: a cancelled request is an abort, not a timeout', async () => {
    silentServer();
    const controller = new AbortController();
    const pending = apiFetch('/api/contacts', { signal: controller.signal, timeoutMs: 5_000 });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads the server’s error code and message, and checks a success against its schema', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ code: 'NOT_FOUND', message: 'Contact not found' }, { status: 404 })),
    );
    await expect(apiFetch('/api/contacts/x')).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Contact not found',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ id: 7 })),
    );
    await expect(apiFetch('/api/x', { schema: z.object({ id: z.string() }) })).rejects.toThrow();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ id: 'seven' })),
    );
    await expect(apiFetch('/api/x', { schema: z.object({ id: z.string() }) })).resolves.toEqual({
      id: 'seven',
    });
  });

  it('tells a network failure from a timeout', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(apiFetch('/api/contacts')).rejects.toMatchObject({ code: 'NETWORK' });
  });
});
