import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { MeResponseSchema, type Profile, type UpdateProfileInput } from '#domain/profiles/profile.schema.ts';
import { knownTimeZones } from '#domain/time/zoned-time.ts';
import { phoneCountries } from '#domain/contacts/phone.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { NativeSelect } from '../../components/ui/native-select.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import { browserTimeZone, sessionQueryKey, useSession } from '../auth/public.ts';

/** The value of the time-zone choice that means "follow the browser". */
const BROWSER = '';

/**
 * Settings → Profile: the name shown in the product, the sign-in e-mail (shown, not edited), and the time
 * zone that draws the day of the reports and the hour of callbacks; "the browser's" follows wherever the user is.
 */
export function ProfileCard() {
  const session = useSession();
  if (!session.data) return null;
  return <ProfileForm profile={session.data} key={session.data.id} />;
}

function ProfileForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const [timeZone, setTimeZone] = useState(profile.timeZone ?? BROWSER);
  const [phoneCountry, setPhoneCountry] = useState(profile.phoneCountry);
  const zones = useMemo(() => knownTimeZones(), []);
  const countries = useMemo(() => countryChoices(), []);
  const save = useMutation({
    mutationFn: (input: UpdateProfileInput) =>
      apiFetch('/api/me', { method: 'PUT', body: input, schema: MeResponseSchema }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      toast.success('Profile saved');
    },
    onError: (error) => toast.error('Error saving profile', { description: error.message }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ firstName, lastName, timeZone: timeZone === BROWSER ? null : timeZone, phoneCountry });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>
          Your name as the product shows it, and the time zone your days are drawn in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex max-w-lg flex-col gap-4" onSubmit={submit} aria-label="Profile">
          <div className="flex flex-col gap-2">
            <Label htmlFor="profile-email">Email</Label>
            <Input id="profile-email" value={profile.email} readOnly disabled />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <NameField id="profile-first-name" label="First name" value={firstName} onChange={setFirstName} />
            <NameField id="profile-last-name" label="Last name" value={lastName} onChange={setLastName} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="profile-time-zone">Time zone</Label>
            <NativeSelect
              id="profile-time-zone"
              value={timeZone}
              onChange={(e) => setTimeZone(e.target.value)}
            >
              <option value={BROWSER}>This browser's ({browserTimeZone()})</option>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </NativeSelect>
            <p className="text-xs text-muted-foreground">
              Reports count your days, and callbacks are set, in this zone.
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="profile-phone-country">Country for phone numbers</Label>
            <NativeSelect
              id="profile-phone-country"
              value={phoneCountry}
              onChange={(e) => setPhoneCountry(e.target.value)}
            >
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.label}
                </option>
              ))}
            </NativeSelect>
            <p className="text-xs text-muted-foreground">
              A number written without a country code (on a contact, in an import, in the dialer) is read as a
              number of this country. Numbers saved before a change keep the reading they had.
            </p>
          </div>
          <Button type="submit" className="self-start" disabled={save.isPending}>
            Save Profile
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** The countries of the numbering plan, by name in the browser's language, with their calling code. */
function countryChoices(): { code: string; label: string }[] {
  const names = new Intl.DisplayNames(undefined, { type: 'region' });
  return phoneCountries()
    .map(({ code, callingCode }) => ({ code, label: `${names.of(code) ?? code} (+${callingCode})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

function NameField(props: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        maxLength={100}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
