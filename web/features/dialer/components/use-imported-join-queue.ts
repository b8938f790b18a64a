import { toast } from 'sonner';
import type { ImportReport } from '#domain/contacts/contact-import.ts';
import { DEFAULT_QUEUE_ID } from '#domain/contacts/queue.schema.ts';
import { addedToQueueText, useAddToQueue, useQueues } from '../../queues/public.ts';

/**
 * After a file is imported from inside the dialer, the new contacts it made join the queue being dialled (they are
 * in All Synced Contacts already, as every new contact is). Contacts the file only updated stay where they were.
 */
export function useImportedJoinQueue() {
  const add = useAddToQueue();
  const queues = useQueues(true);
  return (queueId: string | undefined, report: ImportReport) => {
    const dialled = queues.data?.find((q) => q.id === queueId);
    const isDefault = !queueId || dialled?.queueId === DEFAULT_QUEUE_ID;
    if (report.created === 0 || isDefault) {
      toast.info('Contacts imported', {
        description: `${report.created.toLocaleString()} new contact(s) from ${report.fileName} joined All Synced Contacts.`,
      });
      return;
    }
    add.mutate(
      { queueId, selection: { importId: report.id } },
      {
        onSuccess: (result) =>
          toast.success('Contacts added', {
            description: `${report.fileName}: ${addedToQueueText(result, dialled?.name ?? 'this queue')}`,
          }),
        onError: (error) => toast.error('Failed to process queue contacts', { description: error.message }),
      },
    );
  };
}
