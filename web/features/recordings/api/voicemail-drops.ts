import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { VoicemailDropListSchema } from '#domain/recordings/voicemail-drop.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const dropsKey = ['calls', 'voicemail-drops'] as const;

/** The rep's voicemail-drop messages (Settings → Phone, and the call panel's Drop voicemail). */
export const useVoicemailDrops = () =>
  useQuery({
    queryKey: dropsKey,
    queryFn: ({ signal }) => apiFetch('/api/voicemail/drops', { schema: VoicemailDropListSchema, signal }),
    select: (list) => list.drops,
  });

function useDropsMutation<T>(request: (input: T) => Promise<{ drops: unknown[] }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (list) => putAnswer(queryClient, dropsKey, list),
  });
}

export const useAddVoicemailDrop = () =>
  useDropsMutation(({ name, wav }: { name: string; wav: Blob }) =>
    apiFetch(`/api/voicemail/drops?${new URLSearchParams({ name }).toString()}`, {
      method: 'POST',
      file: { data: wav, contentType: 'audio/wav' },
      schema: VoicemailDropListSchema,
    }),
  );

export const useDeleteVoicemailDrop = () =>
  useDropsMutation((id: string) =>
    apiFetch(`/api/voicemail/drops/${id}`, { method: 'DELETE', schema: VoicemailDropListSchema }),
  );
