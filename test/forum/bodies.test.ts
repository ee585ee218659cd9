import { describe, expect, it } from 'vitest';
import { createPage } from '../../src/core/page.js';
import { analysePage, extractForum, extractForumDebug, floorParts } from '../../middleware/forum/index.js';
import { bodyCandidates } from '../../middleware/forum/body-features.js';

/** A thread whose user panel shows a level badge with a full stop ("LV. 15") and whose replies are
 * short lines without punctuation: the punctuation vote alone takes the badge for the body. */
function badgeThread(): string {
  const said = ['我中午才到旁边远百送东西', '大四路过', '你爬过昆山吗', '在干嘛', '大大打激战二吗', '来嗨', '台灯好潮', '光二吗', '来认亲我也新生', '度来认亲'];
  const floor = (i: number) =>
    `<section class="c-section" id="post_${100 + i}"><div class="c-section__side"><div class="c-user"><div class="usericon userlevel"><span>LV.</span> ${3 + ((i * 7) % 20)}</div>` +
    `<div class="usericon usergp"><span>GP</span> ${i % 3}</div></div></div>` +
    `<div class="c-section__main"><div class="c-post__header"><a class="floor">${i + 1} 楼</a> <a class="username" href="//home.example/u${i}">玩家${'甲乙丙丁戊己庚辛壬癸'[i]}</a>` +
    `<div class="c-post__header__info"><a class="edittime">2017-09-11 16:${10 + i}:32</a></div></div>` +
    `<div class="c-post__body"><article class="c-article"><div class="c-article__content">${said[i]}</div></article></div></div></section>`;
  return `<html><head><title>新生报到 @场外休憩区</title></head><body><h1>新生报到</h1><div id="posts">${said.map((_, i) => floor(i)).join('')}</div></body></html>`;
}

describe('body choice of the floor model (issue 29)', () => {
  it('offers the body slot beside the rules\' choice, with features that tell a badge from a body', () => {
    const page = createPage({ url: 'https://forum.example/C.php?t=1', body: badgeThread() });
    const r = extractForumDebug(page, { model: null })!;
    expect(r.records).toHaveLength(10);
    const { ix, anchors } = analysePage(page);
    const parts = floorParts(ix, r.records, anchors);
    const cands = bodyCandidates(ix, r.records, parts.content, parts.dates);
    expect(cands[0]!.f.get('rule')).toBe(1);
    const text = (k: number) => ix.segments.filter((s) => cands[k]!.nodes[3]!.some((e) => { const a = page.indexOf(e); return a <= s.index && s.index <= ix.end[a]!; })).map((s) => s.text).join(' ');
    const body = cands.findIndex((_, k) => k > 0 && text(k) === '在干嘛');
    expect(body).toBeGreaterThan(0);
    // The body varies from floor to floor and follows the date; the badge repeats but for its number.
    expect(cands[body]!.f.get('distinct')).toBe(1);
    expect(cands[body]!.f.get('afterDate')).toBe(1);
    const badge = cands.findIndex((_, k) => k > 0 && /^LV\. \d+$/.test(text(k)));
    expect(badge).toBeGreaterThan(0);
    expect(cands[badge]!.f.get('distinct') ?? 0).toBeLessThan(0.5);
  });

  it('reads the body, not the badge, with the shipped model', () => {
    const rules = extractForum(createPage({ url: 'https://forum.example/C.php?t=1', body: badgeThread() }), { model: null })!.posts;
    const posts = extractForum(createPage({ url: 'https://forum.example/C.php?t=1', body: badgeThread() }))!.posts;
    expect(posts).toHaveLength(10);
    // (The rules alone read the badge: what the scorer is for.)
    expect(rules.some((p) => p.content.includes('LV.'))).toBe(true);
    expect(posts.map((p) => p.content)).toEqual(['我中午才到旁边远百送东西', '大四路过', '你爬过昆山吗', '在干嘛', '大大打激战二吗', '来嗨', '台灯好潮', '光二吗', '来认亲我也新生', '度来认亲']);
    expect(posts[1]!.author).toBe('玩家乙');
  });
});
