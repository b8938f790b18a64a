import { describe, expect, it } from 'vitest';
import { placeOfNumber, stateOfNumber, zonesOfNumber } from './number-places.ts';

describe('where a number is, from libphonenumber’s data', () => {
  it.each([
    ['+13032961234', ['America/Denver'], 'CO'],
    ['+13055550123', ['America/New_York'], 'FL'],
    ['+14055551234', ['America/Chicago'], 'OK'],
    ['+12065550100', ['America/Los_Angeles'], 'WA'],
    ['+17015551234', ['America/Denver', 'America/North_Dakota/Center'], 'ND'],
    ['+19075551234', ['America/Adak', 'America/Anchorage'], 'AK'],
    ['+14165550100', ['America/Toronto'], null],
    ['+442079460958', ['Europe/London'], null],
    ['+18005551234', null, null],
    ['+15550100017', null, null],
    [null, null, null],
  ])('%s is in %j, state %s', (number, zones, state) => {
    expect(zonesOfNumber(number)).toEqual(zones);
    expect(stateOfNumber(number)).toBe(state);
  });
});

describe('a number’s place, for local presence', () => {
  it.each([
    ['+13032961234', { areaCode: '303', state: 'CO', zones: ['America/Denver'], name: 'Denver' }],
    ['+13035550101', { areaCode: '303', state: 'CO', zones: ['America/Denver'], name: 'Colorado' }],
    ['+14165550100', { areaCode: '416', state: null, zones: ['America/Toronto'], name: 'Ontario' }],
    ['+442079460958', { areaCode: null, state: null, zones: ['Europe/London'], name: null }],
    ['+15550100017', { areaCode: '555', state: null, zones: null, name: null }],
    [null, { areaCode: null, state: null, zones: null, name: null }],
  ])('%s is %j', (number, place) => {
    expect(placeOfNumber(number)).toEqual(place);
  });
});
