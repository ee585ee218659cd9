import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dayFirstForLang, findDates, normaliseDateValue, numericDayFirst, parseDate, timezoneForLang } from '../../src/core/dates.js';
import { createPage, langTag } from '../../src/core/page.js';

const now = new Date('2026-11-30T12:00:00Z');
const sh = { now, timezone: 'Asia/Shanghai' };

describe('findDates', () => {
  it('gives the zone\'s exact offset on the days it changes (offsets are remembered per hour)', () => {
    // every quarter hour of days with a transition (New York's spring and autumn, Lord Howe's half
    // hour, Chatham's :45 zone) against luxon asked directly; a per-day memory would be off by an hour
    const days: [string, string][] = [
      ['America/New_York', '2021-03-14'], ['America/New_York', '2021-11-07'],
      ['Australia/Lord_Howe', '2021-04-04'], ['Australia/Lord_Howe', '2021-10-03'],
      ['Pacific/Chatham', '2021-04-04'], ['Europe/London', '2021-03-28'],
    ];
    for (const [timezone, day] of days) {
      for (let q = 0; q < 96; q++) {
        const hh = String(Math.floor(q / 4)).padStart(2, '0');
        const mm = String((q % 4) * 15).padStart(2, '0');
        const [year, month, d] = day.split('-').map(Number) as [number, number, number];
        const want = DateTime.fromObject({ year, month, day: d, hour: Number(hh), minute: Number(mm) }, { zone: timezone });
        expect(parseDate(`${day} ${hh}:${mm}`, { now, timezone })?.iso, `${timezone} ${day} ${hh}:${mm}`).toBe(
          want.isValid && want.day === d ? want.toISO({ suppressMilliseconds: true }) : undefined,
        );
      }
    }
    expect(parseDate('2021-03-14 01:30', { now, timezone: 'America/New_York' })?.iso).toBe('2021-03-14T01:30:00-05:00');
    expect(parseDate('2021-03-14 03:30', { now, timezone: 'America/New_York' })?.iso).toBe('2021-03-14T03:30:00-04:00');
  });
  it('reads Chinese dates with times', () => {
    expect(parseDate('发布时间：2019年9月7日 13:43', sh)?.iso).toBe('2019-09-07T13:43:00+08:00');
    expect(parseDate('2019-09-07 13:43:45 来源：红周刊', sh)?.iso).toBe('2019-09-07T13:43:45+08:00');
    expect(parseDate('2017-1-9 15:42', sh)?.precision).toBe('minute');
    expect(parseDate('2005/5/7', sh)?.precision).toBe('day');
  });
  it('reads English, German, French and Spanish month names', () => {
    expect(parseDate('Published on September 7, 2019 at 1:43 pm', { now })?.iso).toBe('2019-09-07T13:43:00Z');
    expect(parseDate('Mon Jan 06, 2020 3:07 pm', { now })?.text).toBe('Mon Jan 06, 2020 3:07 pm');
    expect(parseDate('am 7. September 2019', { now })?.month).toBe(9);
    expect(parseDate('le 15 avril 2017', { now })?.month).toBe(4);
    expect(parseDate('15 de abril de 2017', { now })?.day).toBe(15);
    expect(parseDate('7th of March 2018', { now })?.month).toBe(3);
  });
  it('resolves relative dates against the reference time', () => {
    expect(parseDate('3小时前', sh)?.iso).toBe('2026-11-30T17:00:00+08:00');
    expect(parseDate('昨天 20:48', sh)?.iso).toBe('2026-11-29T20:48:00+08:00');
    expect(parseDate('2 days ago', { now })?.day).toBe(28);
    expect(parseDate('vor 2 Stunden', { now })?.hour).toBe(10);
    // Abbreviated English units, with or without a dot (new Reddit's "6 yr. ago").
    expect(parseDate('6 yr. ago', { now })?.year).toBe(2020);
    expect(parseDate('2 mo. ago', { now })?.relative).toBe(true);
    expect(parseDate('3 wks ago', { now })?.day).toBe(9);
    expect(parseDate('5 mos ago', { now })?.month).toBe(6);
  });
  it('keeps an explicit offset', () => {
    expect(parseDate('2019-09-07T13:43:45+02:00', { now })?.iso).toBe('2019-09-07T13:43:45+02:00');
  });
  it('rejects impossible dates', () => {
    expect(parseDate('2019-13-07', { now })).toBeUndefined();
    expect(parseDate('2019-02-30', { now })).toBeUndefined();
    expect(parseDate('2030-01-01', { now })).toBeUndefined();
    expect(parseDate('call 1234-56-78', { now })).toBeUndefined();
  });
  it('reads day-first numeric dates', () => {
    expect(parseDate('15.04.2017 10:20', { now })?.month).toBe(4);
    expect(parseDate('04/15/2017', { now })?.month).toBe(4);
    expect(parseDate('03/04/2017', { now, dayFirst: true })?.month).toBe(4);
  });
  it('finds several dates in order without overlaps', () => {
    const ds = findDates('Posted 2019-09-07 13:43 · edited 2019-09-08', { now });
    expect(ds.map((d) => d.day)).toEqual([7, 8]);
  });
  it('reads month-day with a time and infers the year', () => {
    expect(parseDate('10-08 12:00', sh)?.iso).toBe('2026-10-08T12:00:00+08:00');
    expect(parseDate('01/14 17:58', sh)?.iso).toBe('2026-01-14T17:58:00+08:00');
    expect(parseDate('比分 3-1 结束', sh)).toBeUndefined();
    expect(parseDate('12-25 10:00', sh)?.year).toBe(2025);
  });
  it('infers a missing year and never lands in the future', () => {
    expect(parseDate('12月25日 10:00', sh)?.year).toBe(2025);
    expect(parseDate('9月7日', sh)?.year).toBe(2026);
  });
});

describe('normaliseDateValue', () => {
  it('normalises meta values', () => {
    expect(normaliseDateValue('2019-09-07T13:43:45Z', { now })?.iso).toBe('2019-09-07T13:43:45Z');
    expect(normaliseDateValue('2019-09-07', { now, timezone: 'Asia/Shanghai' })?.precision).toBe('day');
    expect(normaliseDateValue('Sat, 07 Sep 2019 13:43:45 GMT', { now })?.hour).toBe(13);
    expect(normaliseDateValue('1567835025', { now })?.year).toBe(2019);
  });
});

describe('relative words stand alone', () => {
  it('does not find "ayer" inside a word or German "hier" without a time', () => {
    expect(findDates('Bäckerei Mayerei', { now })).toEqual([]);
    expect(findDates('Ich bin hier und warte', { now })).toEqual([]);
    expect(parseDate('hier à 14:30', { now })?.day).toBe(29);
    expect(parseDate('Yesterday, 10:20 AM', { now })?.hour).toBe(10);
  });
});

describe('numeric dates: separators and order', () => {
  it('does not join the ends of two ranges into one date', () => {
    // "2004 - 01/01" is the end of one date and the start of the next, not 1 January 2004
    const ds = findDates('12/01/2004 - 01/01/2005', { now });
    expect(ds.map((d) => d.iso.slice(0, 10))).toEqual(['2004-12-01', '2005-01-01']);
    expect(parseDate('2019 - 09/07', { now })).toBeUndefined();
    expect(parseDate('2019年 9月7日', sh)?.iso).toBe('2019-09-07T00:00:00+08:00');
    expect(parseDate('2019.9.7', sh)?.day).toBe(7);
  });
  it('flags day and month that could be either way round', () => {
    expect(parseDate('06/02/2022 - 13:48', { now })?.orderAmbiguous).toBe(true);
    expect(parseDate('13/02/2022', { now })?.orderAmbiguous).toBeUndefined();
    expect(parseDate('06.02.2022', { now })?.orderAmbiguous).toBeUndefined();
    expect(parseDate('2022-02-06', { now })?.orderAmbiguous).toBeUndefined();
  });
  it("reads a page's order from its unambiguous dates", () => {
    expect(numericDayFirst(['06/02/2022', 'x 13/02/2022 y'])).toBe(true);
    expect(numericDayFirst(['06/02/2022', '02/13/2022'])).toBe(false);
    expect(numericDayFirst(['06/02/2022'])).toBeUndefined();
    expect(numericDayFirst(['13/02/2022', '02/13/2022'])).toBeUndefined();
    expect(numericDayFirst(['score 13-2 at half time'])).toBeUndefined();
  });
});

describe('displayed zones and widget layouts', () => {
  it('reads an upper-case zone abbreviation after the time', () => {
    expect(parseDate('Nov 19, 2019, 10:31 pm CST', { now })?.iso).toBe('2019-11-19T22:31:00-06:00');
    expect(parseDate('Monday November 18, 2019 7:45 am PST by Joe', { now })?.iso).toBe('2019-11-18T07:45:00-08:00');
    expect(parseDate('2019-09-07 13:43 CEST', { now })?.iso).toBe('2019-09-07T13:43:00+02:00');
    // French "est" is a word, and an abbreviation must stand alone
    expect(parseDate('le 15 avril 2017 à 10:20 est', { now })?.hasOffset).toBeUndefined();
    expect(parseDate('Nov 19, 2019, 10:31 pm CSTX', { now })?.iso).toBe('2019-11-19T22:31:00Z');
  });
  it('reads the weekday between day and year', () => {
    expect(parseDate('Dec 28 Sat 2013 00:28', { now })?.iso).toBe('2013-12-28T00:28:00Z');
  });
});

describe('dayFirstForLang', () => {
  it('reads the numeric order a language writes', () => {
    expect(dayFirstForLang('pt-BR')).toBe(true);
    expect(dayFirstForLang('fr')).toBe(true);
    expect(dayFirstForLang('en-GB')).toBe(true);
    expect(dayFirstForLang('en-US')).toBeUndefined();
    expect(dayFirstForLang('en')).toBeUndefined();
    expect(dayFirstForLang('zh-CN')).toBeUndefined();
    expect(dayFirstForLang(undefined)).toBeUndefined();
  });
});

describe('zones from the page language', () => {
  it('single-zone languages and region subtags give a zone; continent-spanning languages without a region do not', () => {
    expect(timezoneForLang('de')).toBe('Europe/Berlin');
    expect(timezoneForLang('pt-BR')).toBe('America/Sao_Paulo');
    expect(timezoneForLang('pt-PT')).toBe('Europe/Lisbon');
    expect(timezoneForLang('en-GB')).toBe('Europe/London');
    expect(timezoneForLang('zh-TW')).toBe('Asia/Taipei');
    expect(timezoneForLang('es')).toBeUndefined();
    expect(timezoneForLang('en')).toBeUndefined();
    expect(timezoneForLang('en-US')).toBeUndefined();
  });
  it('langTag keeps the declared region only when the declared language is the detected one', () => {
    const prose = '<p>Der Bundestag hat am Donnerstag das neue Gesetz beschlossen, und die Opposition war nicht dafür.</p>';
    expect(langTag(createPage({ url: 'https://e.de/a', body: `<html lang="de-AT"><body>${prose}</body></html>` }))).toBe('de-at');
    const zh = '<p>国务院常务会议今天在北京召开，会议研究部署了进一步稳定经济的一系列政策措施。</p>';
    expect(langTag(createPage({ url: 'https://e.cn/a', body: `<html lang="en-US"><body>${zh}</body></html>` }))).toBe('zh');
  });
});
