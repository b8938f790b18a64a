import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RecordingSettingsResponseSchema,
  type RecordingSettings,
} from '#domain/recordings/call-recording.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { putAnswer } from '../../../lib/query-client.ts';

const settingsKey = ['calls', 'recording-settings'] as const;

/** Settings → Phone → Call recording (decision 030). */
export const useRecordingSettings = () =>
  useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) =>
      apiFetch('/api/recording-settings', { schema: RecordingSettingsResponseSchema, signal }),
  });

export function useSaveRecordingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: RecordingSettings) =>
      apiFetch('/api/recording-settings', {
        method: 'PUT',
        body: settings,
        schema: RecordingSettingsResponseSchema,
      }),
    onSuccess: (answer) => putAnswer(queryClient, settingsKey, answer),
  });
}
