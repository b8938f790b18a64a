import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { VoicemailGreetingSchema, type VoicemailGreeting } from '#domain/recordings/voicemail.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const greetingKey = ['calls', 'voicemail-greeting'] as const;

/** Settings → Phone → Voicemail greeting: the written greeting and the recorded one. */
export const useVoicemailGreeting = () =>
  useQuery({
    queryKey: greetingKey,
    queryFn: ({ signal }) => apiFetch('/api/voicemail/greeting', { schema: VoicemailGreetingSchema, signal }),
  });

function useGreetingMutation<T>(request: (input: T) => Promise<VoicemailGreeting>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (greeting) => putAnswer(queryClient, greetingKey, greeting),
  });
}

export const useSaveGreetingText = () =>
  useGreetingMutation((text: string) =>
    apiFetch('/api/voicemail/greeting', { method: 'PUT', body: { text }, schema: VoicemailGreetingSchema }),
  );

export const useSaveGreetingRecording = () =>
  useGreetingMutation((wav: Blob) =>
    apiFetch('/api/voicemail/greeting/recording', {
      method: 'PUT',
      file: { data: wav, contentType: 'audio/wav' },
      schema: VoicemailGreetingSchema,
    }),
  );

export const useRemoveGreetingRecording = () =>
  useGreetingMutation(() =>
    apiFetch('/api/voicemail/greeting/recording', { method: 'DELETE', schema: VoicemailGreetingSchema }),
  );
