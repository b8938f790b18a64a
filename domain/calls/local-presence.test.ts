import { describe, expect, it } from 'vitest';
import { nearestCallerId, type NumberPlace, type PlacedCallerId } from './local-presence.ts';

const place = (areaCode: string, state: string, zone: string, name = state): NumberPlace => ({
  areaCode,
  state,
  zones: [zone],
  name,
});
const DENVER = place('303', 'CO', 'America/Denver', 'Denver');
const BOULDER = place('720', 'CO', 'America/Denver', 'Boulder');
const PHOENIX = place('602', 'AZ', 'America/Phoenix');
const SALT_LAKE = place('801', 'UT', 'America/Denver');
const AUSTIN = place('512', 'TX', 'America/Chicago');
const NEW_YORK = place('212', 'NY', 'America/New_York');
const LONDON: NumberPlace = { areaCode: null, state: null, zones: ['Europe/London'], name: 'London' };

const ids: PlacedCallerId[] = [
  { e164: '+12125550100', isDefault: true, place: NEW_YORK },
  { e164: '+13035550101', isDefault: false, place: DENVER },
  { e164: '+18015550102', isDefault: false, place: SALT_LAKE },
  { e164: '+15125550103', isDefault: false, place: AUSTIN },
];

describe('local presence: the caller ID nearest the person called', () => {
  it.each<[string, NumberPlace, PlacedCallerId[], string, string]>([
    ['a Denver contact: the Denver number (same area code)', DENVER, ids, '+13035550101', 'area code'],
    ['a Boulder contact: the Denver number (same state)', BOULDER, ids, '+13035550101', 'state'],
    [
      'a Boulder contact with no Colorado number: Salt Lake City (same time zone)',
      BOULDER,
      ids.filter((c) => c.place.state !== 'CO'),
      '+18015550102',
      'time zone',
    ],
    ['a Phoenix contact (its own zone): the default', PHOENIX, ids, '+12125550100', 'default'],
    ['a London contact: the default', LONDON, ids, '+12125550100', 'default'],
    ['a New York contact: the default, which is also local', NEW_YORK, ids, '+12125550100', 'area code'],
    [
      'two numbers in the area code: the default among them',
      DENVER,
      [
        { e164: '+13035550199', isDefault: false, place: DENVER },
        { e164: '+13035550101', isDefault: true, place: DENVER },
      ],
      '+13035550101',
      'area code',
    ],
    [
      'two numbers in the area code, neither the default: the first',
      DENVER,
      [ids[0]!, { e164: '+13035550199', isDefault: false, place: DENVER }, ids[1]!],
      '+13035550199',
      'area code',
    ],
  ])('%s', (_, to, callerIds, number, match) => {
    const chosen = nearestCallerId(to, callerIds);
    expect(chosen?.callerId.e164).toBe(number);
    expect(chosen?.match).toBe(match);
  });

  it('a number the data knows nothing of matches no place: the default', () => {
    const unknown: NumberPlace = { areaCode: null, state: null, zones: null, name: null };
    expect(nearestCallerId(unknown, ids)?.match).toBe('default');
  });

  it('no caller ID, or none near and none the default: nothing to choose', () => {
    expect(nearestCallerId(DENVER, [])).toBeNull();
    expect(nearestCallerId(LONDON, ids.slice(1))).toBeNull();
  });
});
