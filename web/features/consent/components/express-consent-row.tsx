import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ExpressConsentInputSchema, type ExpressConsent } from '#domain/consent/consent.schema.ts';
import { usDay } from '#domain/time/zoned-time.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
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
import { todayIn } from '../../../lib/zoned-days.ts';
import { useTimeZone } from '../../auth/public.ts';
import { useGiveExpressConsent, useWithdrawExpressConsent } from '../api/consent-queries.ts';

/** "Record express consent": the day the contact agreed to calls and texts, and where. */
function RecordConsentDialog({ contactId, onClose }: { contactId: string; onClose: () => void }) {
  const today = todayIn(useTimeZone());
  const [givenOn, setGivenOn] = useState(today);
  const [source, setSource] = useState('');
  const give = useGiveExpressConsent(contactId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ExpressConsentInputSchema.safeParse({ givenOn, source });
    if (!parsed.success)
      return void toast.error('Please check the consent', { description: parsed.error.issues[0]?.message });
    give.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Express consent recorded');
        onClose();
      },
      onError: (error) => toast.error('Error', { description: error.message }),
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Record express consent</DialogTitle>
          <DialogDescription>
            The contact agreed to be called and texted. Their consent lifts the federal calling hours (47 CFR
            64.1200(f)(15)); a state’s hours and limits, your own hours, do-not-call and STOP still apply.
          </DialogDescription>
        </DialogHeader>
        <form id="express-consent-form" className="flex flex-col gap-3" onSubmit={submit}>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="consent-given-on">Given on</Label>
            <Input
              id="consent-given-on"
              type="date"
              value={givenOn}
              max={today}
              onChange={(e) => setGivenOn(e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="consent-source">Source</Label>
            <Input
              id="consent-source"
              value={source}
              maxLength={200}
              placeholder="Web form, signed agreement, recorded call…"
              onChange={(e) => setSource(e.target.value)}
            />
          </div>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="express-consent-form" disabled={give.isPending}>
            Record consent
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The contact's express consent on their page: what stands, with Withdraw behind a confirmation, or Record. */
export function ExpressConsentRow({
  contactId,
  consent,
}: {
  contactId: string;
  consent: ExpressConsent | null;
}) {
  const [recording, setRecording] = useState(false);
  const [withdrawing, setWithdrawing] = useState(false);
  const withdraw = useWithdrawExpressConsent(contactId);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="w-28 text-muted-foreground">Express consent</span>
      {consent ? (
        <>
          <Badge variant="secondary">Given {usDay(consent.givenOn)}</Badge>
          <span>{consent.source}</span>
          <Button variant="outline" size="sm" onClick={() => setWithdrawing(true)}>
            Withdraw consent
          </Button>
        </>
      ) : (
        <>
          <span className="text-muted-foreground">None recorded</span>
          <Button variant="outline" size="sm" onClick={() => setRecording(true)}>
            Record express consent
          </Button>
        </>
      )}
      {recording && <RecordConsentDialog contactId={contactId} onClose={() => setRecording(false)} />}
      <ConfirmDialog
        open={withdrawing}
        onOpenChange={setWithdrawing}
        title="Withdraw express consent?"
        description="The federal calling hours apply to this contact again. The consent stays in their record."
        confirmLabel="Withdraw"
        busy={withdraw.isPending}
        onConfirm={() =>
          withdraw.mutate(undefined, {
            onSuccess: () => {
              setWithdrawing(false);
              toast.success('Express consent withdrawn');
            },
            onError: (error) => toast.error('Error', { description: error.message }),
          })
        }
      />
    </div>
  );
}
