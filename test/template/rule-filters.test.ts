import { describe, expect, it } from 'vitest';
import { filterSegments, judgeSegment, filterModeFor, looksLikeCode, isUsername, linkListMask } from '../../middleware/rule-filters/index.js';
import { ruleFiltersMiddleware } from '../../middleware/rule-filters/index.js';
import { createPage } from '../../src/core/page.js';
import { createContext } from '../../src/chain/process.js';
import { MemorySiteStore } from '../../src/storage/site-store.js';
import { silentLogger } from '../../src/core/middleware.js';

const seg = (text: string, linkChars = 0) => ({ text, linkChars });
const kept = (texts: string[], lang?: string) => filterSegments(texts.map((t) => seg(t)), { lang }).map((s) => s.text);

const JS = "var _gaq = _gaq || []; _gaq.push(['_setAccount', 'UA-1']); (function() { var ga = document.createElement('script'); ga.async = true; })();";
const CSS = '.nav{margin:0;padding:0} .nav li{float:left;width:120px} #top>a{color:#333}';
const JSON_BLOB = '{"id":123,"slot":"top","sizes":[[300,250],[728,90]],"targeting":{"k":"v"}}';

describe('rule filters (seed 001)', () => {
  it('keeps dates in Chinese, numeric, English and relative forms', () => {
    for (const d of ['2017-04-15', '2017年4月15日 15:42', '发布时间：2017-04-15 10:20', 'April 15, 2017', 'Published on 15 April 2017 | 3 comments', '3小时前', '昨天 20:48', '2 days ago']) {
      expect(kept([d], 'zh'), d).toEqual([d]);
      expect(kept([d], 'en'), d).toEqual([d]);
    }
  });

  it('keeps usernames (Han, Latin, digits, underscore, no spaces)', () => {
    for (const u of ['user_2024', '张三', 'Tom_99', '小明_abc']) {
      expect(isUsername(u)).toBe(true);
      expect(kept([u], 'zh')).toEqual([u]);
    }
    expect(isUsername('two words')).toBe(false);
    expect(isUsername('a=b;')).toBe(false);
  });

  it('Chinese page: keeps Chinese text, including lines with numbers and brackets; drops code', () => {
    const zh = ['市图书馆宣布，自下月起工作日开放时间延长至晚上九点。', '(2)、两名副教授(或相当职称、)以上的专家推荐信。', '[6] 程艳霞. 现代物流管理理论[M]. 武汉: 华中科技大学出版社, 2009.', '8:30－8:50', '电话：010-84488961'];
    expect(kept([...zh, JS, CSS, JSON_BLOB], 'zh')).toEqual(zh);
  });

  it('English page: keeps prose and short content lines (headings, list items, captions); drops code', () => {
    const lines = [
      'Residents of Millbrook voted on Tuesday to rebuild the stone bridge that has carried traffic over the river since 1887.',
      'What comes next',
      '#10 Plan vacations (now)',
      'A public consultation in May',
      'Monday to Friday: 8 a.m. to 9 p.m.',
      'By Jane Doe',
      'Photo: Reuters',
      '3-1',
    ];
    expect(kept([...lines, JS, CSS, JSON_BLOB], 'en')).toEqual(lines);
  });

  it('drops prose-length text with no function words (keyword lists, tag clouds)', () => {
    const spam = 'cheap flights cheap hotels cheap cars best deals travel booking online discount coupons vouchers';
    expect(judgeSegment(spam, 'language', { lang: 'en' }).keep).toBe(false);
    // an enumeration of names is kept
    expect(judgeSegment("CNN's Anderson Cooper, Kathleen Koch, David Mattingly, Jeanne Meserve, Miles O'Brien, Jim Spellman, Gary Tuchman and John Zarrella", 'language', { lang: 'en' }).keep).toBe(true);
    // a Russian quotation on an English page is judged with Russian stop words (English ones: 0)
    expect(judgeSegment('Мы сделаем это, сказала канцлер в понедельник перед журналистами в Берлине, и она действительно так думала.', 'language', { lang: 'en' }).keep).toBe(true);
    // German prose passes with the German list
    expect(judgeSegment('Die Bürger der Stadt haben am Dienstag beschlossen, dass die alte Steinbrücke über den Fluss wieder aufgebaut werden soll.', 'language', { lang: 'de' }).keep).toBe(true);
  });

  it('another script without a stop-word list is judged language-independently', () => {
    const th = 'ประชาชนในเมืองลงมติให้สร้างสะพานหินเก่าขึ้นใหม่';
    expect(kept([th, JS], 'th')).toEqual([th]);
  });

  it('chooses the mode per page by language, else by script', () => {
    expect(filterModeFor('zh-CN', '')).toBe('han');
    expect(filterModeFor('ja', '')).toBe('cjk');
    expect(filterModeFor('en', '中文中文中文')).toBe('language');
    expect(filterModeFor(undefined, '这是一个中文页面的内容')).toBe('han');
    expect(filterModeFor(undefined, 'this is an English page')).toBe('language');
    // Japanese: kana counts with Han in cjk mode
    expect(judgeSegment('今日は天気がとても良いです。', 'cjk').keep).toBe(true);
  });

  it('code detection needs several code symbols, not one bracket', () => {
    expect(looksLikeCode(JS)).toBe(true);
    expect(looksLikeCode(CSS)).toBe(true);
    expect(looksLikeCode('The ratio was 3:1 [see table] in 2019.')).toBe(false);
  });

  it('drops runs of link-only lines but keeps a single linked headline', () => {
    const segs = [seg('Headline of the post', 20), seg('The first paragraph of the article, which is long enough to be prose.'), seg('Most read story one', 19), seg('Most read story two', 19), seg('Most read story three', 21), seg('Closing paragraph.')];
    expect(linkListMask(segs)).toEqual([false, false, true, true, true, false]);
    expect(filterSegments(segs, { lang: 'en' }).map((s) => s.text)).toEqual(['Headline of the post', 'The first paragraph of the article, which is long enough to be prose.', 'Closing paragraph.']);
    expect(filterSegments(segs, { lang: 'en', dropLinkLists: false })).toHaveLength(6);
  });

  it('handles empty input and empty strings', () => {
    expect(filterSegments([])).toEqual([]);
    expect(kept(['', ' '], 'en')).toEqual([]);
  });

  it('middleware narrows ctx.segments, keeps DFS order, and by default only on templated pages', () => {
    const page = createPage({ url: 'http://x.test/', body: `<html lang="en"><body><h1>Title here</h1><p>A sentence of the article that reads as English prose for the reader.</p><div>${JS}</div><p>2024-03-05</p></body></html>` });
    const ctx = createContext(page, { url: page.url }, { spider: 't', store: new MemorySiteStore(), log: silentLogger });
    ruleFiltersMiddleware({ onlyWithTemplate: false }).process(ctx);
    expect(ctx.segments.map((s) => s.text)).toEqual(['Title here', 'A sentence of the article that reads as English prose for the reader.', '2024-03-05']);
    const ctx2 = createContext(page, { url: page.url }, { spider: 't', store: new MemorySiteStore(), log: silentLogger });
    ruleFiltersMiddleware({}).process(ctx2);
    expect(ctx2.segments).toHaveLength(4);
    ctx2.templateApplied = true;
    ruleFiltersMiddleware({}).process(ctx2);
    expect(ctx2.segments).toHaveLength(3);
  });

  it('keeps link lists on list pages (the links are the content there)', () => {
    const items = ['First story of the day', 'Second story of the day', 'Third story of the day', 'Fourth story of the day'];
    const page = createPage({ url: 'http://x.test/', body: `<html lang="en"><body><h1>Latest</h1><ul>${items.map((t, i) => `<li><a href="/s/${i}">${t}</a></li>`).join('')}</ul></body></html>` });
    const run = (label?: 'list' | 'detail') => {
      const ctx = createContext(page, { url: page.url }, { spider: 't', store: new MemorySiteStore(), log: silentLogger });
      ctx.label = label;
      ruleFiltersMiddleware({ onlyWithTemplate: false }).process(ctx);
      return ctx.segments.map((s) => s.text);
    };
    expect(run('list')).toEqual(['Latest', ...items]);
    expect(run('detail')).toEqual(['Latest']);
  });
});
