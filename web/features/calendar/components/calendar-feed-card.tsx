import { toast } from 'sonner';
import { CalendarDays } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { useCalendarFeed, useMakeCalendarFeed, useTurnOffCalendarFeed } from '../api/calendar-feed.ts';

/** How to subscribe in each calendar app people use. */
const HOW_TO = [
  ['Google Calendar', 'Other calendars → + → From URL, paste the address, Add calendar.'],
  ['Outlook', 'Add calendar → Subscribe from web, paste the address, Import.'],
  ['Apple Calendar', 'File → New Calendar Subscription, paste the address, Subscribe.'],
] as const;

/**
 * Settings → Integrations → Google Calendar (decision 032): the callbacks as a calendar a calendar app subscribes
 * to, at a secret address shown here, copied in one click, regenerated to revoke the old one, or turned off.
 */
export function CalendarFeedCard() {
  const feed = useCalendarFeed();
  const make = useMakeCalendarFeed();
  const turnOff = useTurnOffCalendarFeed();
  const url = feed.data?.feed?.url;
  const copy = (address: string) =>
    void navigator.clipboard
      .writeText(address)
      .then(() => toast.success('Calendar address copied'))
      .catch(() => toast.error('Could not copy', { description: 'Select the address and copy it by hand.' }));
  const failed = (what: string) => (error: Error) => toast.error(what, { description: error.message });

  return (
    <Card role="region" aria-label="Google Calendar">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarDays className="size-5" /> Google Calendar
        </CardTitle>
        <CardDescription>
          Your callbacks in your calendar: each callback still due is an event at its time, with the
          contact&apos;s name, number and notes and a link back here. Google Calendar, Outlook and Apple
          Calendar subscribe to a secret address and refresh it themselves (Google may take several hours).
          Anyone who has the address can read your callbacks: keep it private, and make a new one if it got
          out.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {feed.isPending ? (
          <Spinner />
        ) : feed.isError ? (
          <p role="alert" className="text-destructive">
            {feed.error.message}
          </p>
        ) : url ? (
          <>
            <div className="flex flex-wrap gap-2">
              <Input
                aria-label="Calendar address"
                readOnly
                value={url}
                className="min-w-0 flex-1 font-mono text-xs"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button onClick={() => copy(url)}>Copy address</Button>
            </div>
            <p className="text-muted-foreground">
              {feed.data.feed?.lastFetchedAt
                ? `Last read by a calendar ${formatMoment(feed.data.feed.lastFetchedAt)}.`
                : 'No calendar has read it yet.'}
            </p>
            <ul className="flex flex-col gap-1 text-muted-foreground">
              {HOW_TO.map(([app, steps]) => (
                <li key={app}>
                  <span className="font-medium text-foreground">{app}:</span> {steps}
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                disabled={make.isPending}
                onClick={() =>
                  make.mutate(undefined, {
                    onSuccess: () =>
                      toast.success('New calendar address made', {
                        description: 'The old one no longer works: subscribe again with this one.',
                      }),
                    onError: failed('Could not make a new address'),
                  })
                }
              >
                Make a new address
              </Button>
              <Button
                variant="outline"
                disabled={turnOff.isPending}
                onClick={() =>
                  turnOff.mutate(undefined, {
                    onSuccess: () => toast.success('Calendar feed turned off'),
                    onError: failed('Could not turn the calendar feed off'),
                  })
                }
              >
                Turn off
              </Button>
            </div>
          </>
        ) : (
          <div>
            <Button
              disabled={make.isPending}
              onClick={() =>
                make.mutate(undefined, {
                  onSuccess: (answer) => answer.feed && copy(answer.feed.url),
                  onError: failed('Could not make the calendar address'),
                })
              }
            >
              Get calendar address
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
