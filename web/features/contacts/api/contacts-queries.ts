import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { BulkDeleteResultSchema, type BulkSelection } from '#domain/contacts/bulk-selection.schema.ts';
import type { ColdLeadInput } from '#domain/contacts/cold-lead.ts';
import {
  ContactDetailSchema,
  ContactSchema,
  type CreateContactInput,
  type UpdateContactInput,
} from '#domain/contacts/contact.schema.ts';
import {
  ContactCountsSchema,
  ContactLookupResultSchema,
  ContactsPageSchema,
  MAX_LOOKUP_IDS,
  type ParsedContactFilter,
  type ParsedListContactsQuery,
} from '#domain/contacts/contact-list.schema.ts';
import { apiFetch, LONG_OPERATION_TIMEOUT_MS } from '../../../lib/api-client.ts';

/** Every contact query lives under 'contacts', the realtime topic: a change refetches them all. */
export const contactKeys = {
  all: ['contacts'] as const,
  list: (q: ParsedListContactsQuery) => ['contacts', 'list', q] as const,
  counts: (f: ParsedContactFilter) => ['contacts', 'counts', f] as const,
  tags: ['contacts', 'tags'] as const,
  detail: (id: string) => ['contacts', 'detail', id] as const,
};

function toParams(values: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values))
    if (v !== undefined && v !== '' && v !== null) params.set(k, String(v));
  return params.toString();
}

/** Contact list freshness: 5 minutes, 3 retries backing off to 30 s (decision 000 "Query freshness"). */
const LIST_FRESHNESS = {
  staleTime: 5 * 60 * 1000,
  retry: 3,
  retryDelay: (n: number) => Math.min(1000 * 2 ** n, 30_000),
};

export function useContactsPage(query: ParsedListContactsQuery) {
  return useQuery({
    queryKey: contactKeys.list(query),
    queryFn: ({ signal }) =>
      apiFetch(`/api/contacts?${toParams(query)}`, { schema: ContactsPageSchema, signal }),
    placeholderData: keepPreviousData,
    ...LIST_FRESHNESS,
  });
}

export function useContactCounts(filter: ParsedContactFilter) {
  return useQuery({
    queryKey: contactKeys.counts(filter),
    queryFn: ({ signal }) =>
      apiFetch(`/api/contacts/counts?${toParams(filter)}`, { schema: ContactCountsSchema, signal }),
    placeholderData: keepPreviousData,
    ...LIST_FRESHNESS,
  });
}

export function useContactTags() {
  return useQuery({
    queryKey: contactKeys.tags,
    queryFn: async ({ signal }) =>
      (await apiFetch('/api/contacts/tags', { schema: z.object({ tags: z.array(z.string()) }), signal }))
        .tags,
  });
}

/** `enabled: false` while the page deletes the contact itself, so no change notice refetches it into a 404. */
export function useContactDetail(id: string, enabled = true) {
  return useQuery({
    queryKey: contactKeys.detail(id),
    queryFn: ({ signal }) => apiFetch(`/api/contacts/${id}`, { schema: ContactDetailSchema, signal }),
    retry: false,
    enabled,
  });
}

const ContactResponse = z.object({ contact: ContactSchema });

function useInvalidatingMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

export const useCreateContact = () =>
  useInvalidatingMutation((input: CreateContactInput) =>
    apiFetch('/api/contacts', { method: 'POST', body: input, schema: ContactResponse }),
  );

export const useUpdateContact = (id: string) =>
  useInvalidatingMutation((input: UpdateContactInput) =>
    apiFetch(`/api/contacts/${id}`, { method: 'PATCH', body: input, schema: ContactResponse }),
  );

/** After a delete, everything refetches except the deleted contact's own queries, which would only answer 404. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/contacts/${id}`, { method: 'DELETE' }),
    onSuccess: (_, id) =>
      queryClient.invalidateQueries({
        queryKey: contactKeys.all,
        predicate: (q) => q.queryKey[2] !== id, // its detail and e-mails would only answer 404
      }),
  });
}

export const useBulkDelete = () =>
  useInvalidatingMutation((selection: BulkSelection) =>
    apiFetch('/api/contacts/bulk-delete', {
      method: 'POST',
      body: selection,
      schema: BulkDeleteResultSchema,
      // "Select all N matching" deletes a whole filter, up to a million contacts, in one request.
      timeoutMs: LONG_OPERATION_TIMEOUT_MS,
    }),
  );

export const useCreateColdLead = () =>
  useInvalidatingMutation((input: ColdLeadInput) =>
    apiFetch('/api/contacts/cold-leads', { method: 'POST', body: input, schema: ContactResponse }),
  );

/** The contact selector's list: every contact matching a search, by name, 100 at a time as the list scrolls. */
export function useContactPicker(search: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['contacts', 'picker', search],
    queryFn: ({ signal, pageParam }) =>
      apiFetch(
        `/api/contacts?${toParams({ search, sort: 'name', dir: 'asc', after: pageParam || undefined })}`,
        { schema: ContactsPageSchema, signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasNext ? (last.lastCursor ?? undefined) : undefined),
    enabled,
    ...LIST_FRESHNESS,
  });
}

/** Contacts by id, in the order given (another user's ids are left out by the server). */
export function useContactLookup(ids: readonly string[]) {
  return useQuery({
    queryKey: ['contacts', 'lookup', ids],
    queryFn: async ({ signal }) =>
      (
        await apiFetch('/api/contacts/lookup', {
          method: 'POST',
          body: { ids: ids.slice(0, MAX_LOOKUP_IDS) },
          schema: ContactLookupResultSchema,
          signal,
        })
      ).contacts,
    enabled: ids.length > 0,
  });
}
