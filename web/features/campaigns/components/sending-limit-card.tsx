import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PACE, type SendingLimits } from '#domain/campaigns/campaign-pace.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useSaveSendingLimits, useSendingLimits } from '../api/sending-limits-queries.ts';

const WORDS = {
  email: {
    field: 'emailPerMinute',
    title: 'Sending limit',
    what: 'campaign e-mails',
    why: 'Your mail server may limit how fast your account sends.',
  },
  sms: {
    field: 'smsPerMinute',
    title: 'SMS sending limit',
    what: 'text messages',
    why: 'Carriers and your provider may limit how fast a number sends.',
  },
} as const;

/**
 * Settings → Email and Settings → Phone: at most N campaign e-mails (or text messages) a minute across all the
 * user's campaigns; empty means each campaign's own pace alone (a per-user rate a user can set).
 */
export function SendingLimitCard({ kind }: { kind: 'email' | 'sms' }) {
  const limits = useSendingLimits();
  if (limits.isPending) return <Spinner />;
  if (limits.isError) return null;
  return <SendingLimitForm kind={kind} limits={limits.data} key={String(limits.data[WORDS[kind].field])} />;
}

function SendingLimitForm({ kind, limits }: { kind: 'email' | 'sms'; limits: SendingLimits }) {
  const words = WORDS[kind];
  const save = useSaveSendingLimits();
  const [value, setValue] = useState(limits[words.field]?.toString() ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = value.trim() === '' ? null : Number(value);
    if (n !== null && (!Number.isInteger(n) || n < PACE.min || n > PACE.max))
      return void toast.error('Error', {
        description: `A limit is a whole number from ${PACE.min} to ${PACE.max.toLocaleString()}, or empty for none.`,
      });
    save.mutate(
      { ...limits, [words.field]: n },
      {
        onSuccess: () =>
          toast.success('Sending limit saved', {
            description:
              n === null ? 'Each campaign sends at its own pace.' : `At most ${n} ${words.what} a minute.`,
          }),
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{words.title}</CardTitle>
        <CardDescription>
          At most this many {words.what} a minute across all your campaigns, whatever each campaign's own
          pace. {words.why}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex items-end gap-2" onSubmit={submit} aria-label={words.title}>
          <div className="flex flex-col gap-2">
            <Label
              htmlFor={`limit-${kind}`}
            >{`${words.what[0]!.toUpperCase()}${words.what.slice(1)} per minute`}</Label>
            <Input
              id={`limit-${kind}`}
              type="number"
              className="w-40"
              min={PACE.min}
              max={PACE.max}
              placeholder="No limit"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={save.isPending}>
            Save limit
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
