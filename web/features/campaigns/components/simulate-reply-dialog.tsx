import { useState } from 'react';
import { toast } from 'sonner';
import type { SmsRecipient } from '#domain/campaigns/sms-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { useSimulateReply } from '../api/simulated-reply-queries.ts';

/**
 * The simulator's "Simulate reply" (DECISIONS.md "Replies on the simulator"): the recipient answers, through the
 * same signed webhook a provider would call. STOP opts the number out, START takes it back, HELP is answered.
 */
export function SimulateReplyDialog(props: {
  campaignId: string;
  recipient: SmsRecipient | null;
  onClose: () => void;
}) {
  const simulate = useSimulateReply(props.campaignId);
  const [text, setText] = useState('STOP');
  const send = (reply: string) =>
    props.recipient &&
    simulate.mutate(
      { contactId: props.recipient.contactId, text: reply },
      {
        onSuccess: ({ reply: answer }) => {
          toast.success('Reply received', {
            description: answer
              ? `The number was answered: ${answer}`
              : `${props.recipient!.name} replied “${reply}”.`,
          });
          props.onClose();
        },
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  return (
    <Dialog open={props.recipient !== null} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Simulate a reply</DialogTitle>
          <DialogDescription>
            {props.recipient?.name} answers the message from {props.recipient?.phone}, as a real phone would
            (simulator only). STOP, STOPALL, UNSUBSCRIBE, CANCEL, END or QUIT opt the number out; START or
            UNSTOP opt it back in; HELP gets the help text.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2">
          <Label htmlFor="simulated-reply">Reply</Label>
          <Input
            id="simulated-reply"
            value={text}
            maxLength={1600}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="flex gap-2">
            {['STOP', 'START', 'HELP'].map((word) => (
              <Button key={word} type="button" size="sm" variant="outline" onClick={() => setText(word)}>
                {word}
              </Button>
            ))}
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={props.onClose}>
            Cancel
          </Button>
          <Button disabled={!text.trim() || simulate.isPending} onClick={() => send(text)}>
            Send reply
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
