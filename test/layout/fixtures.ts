/**
 * Pages whose layout is in their CSS, not in their markup (issue 28): neutral class names, no
 * chrome tags (header/nav/aside/footer), so only where the boxes are drawn tells the sidebar,
 * the header bar and the footer from the body. Each page's stylesheet is a file beside it
 * (`extract --render` serves it from the page's folder).
 */

export const BODY = [
  'The harbour committee met on Tuesday evening to discuss the new ferry timetable, which adds two early crossings on weekdays and moves the last boat back by half an hour.',
  'Residents of the outer islands had asked for the change for years, saying that the first boat left too late for anyone who works a morning shift in town.',
  'The operator said the extra crossings would be paid for by the regional transport fund until the end of next year, after which the council will review the numbers.',
  'Fishermen at the meeting raised concerns about the wash from the faster boats, and the committee agreed to measure it at three points along the quay this spring.',
];
export const SIDE = [
  'Our newsletter goes out every Friday with the week’s most read stories, the tide tables and a short note from the editor about what is coming next week.',
  'We are a small independent newsroom funded by our readers, and every contribution helps us keep reporting on the islands and the coast for everyone.',
];
export const HEAD = 'Island Courier: news from the harbour towns, the ferries and the people who live on the coast all year round.';
export const FOOT = 'All rights reserved by the publishers of this newspaper, reproduction of any article requires written permission from the editors.';

const paras = (ps: string[]) => ps.map((p) => `<p>${p}</p>`).join('\n');
const menu = '<div class="m"><a href="/">Home</a> <a href="/news/">News</a> <a href="/ferries/">Ferries</a> <a href="/about/">About</a></div>';
const side = `<div class="s"><div class="t">Newsletter</div>${paras(SIDE)}<div class="l"><a href="/a/1.html">Tide tables</a><br><a href="/a/2.html">Ferry prices</a><br><a href="/a/3.html">Letters</a></div></div>`;
const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="style.css"></head><body>${body}</body></html>`;

export interface LayoutFixture {
  name: string;
  html: string;
  css: string;
  /** Region the sidebar is drawn in, and whether the header is a fixed bar. */
  sidebar: 'left' | 'right';
}

const title = '<h1>Two more morning ferries for the outer islands</h1>';
const article = `${title}${paras(BODY)}`;

export const FIXTURES: LayoutFixture[] = [
  {
    // a layout table: header row, then the body cell and the sidebar cell side by side
    name: 'table',
    css: 'body{margin:0;font:16px sans-serif} table{width:1200px;border-collapse:collapse} td{vertical-align:top;padding:8px} .x{width:300px}',
    sidebar: 'right',
    html: page('Table layout', `<table><tr><td colspan="2"><div class="h">${HEAD}</div>${menu}</td></tr><tr><td>${article}</td><td class="x">${side}</td></tr><tr><td colspan="2"><div class="f">${FOOT}</div></td></tr></table>`),
  },
  {
    // a right float: the sidebar (before the body in the DOM) floats right beside it, in the same wrapper
    name: 'float',
    css: 'body{margin:0;font:16px sans-serif} .w{width:1100px;margin:0 auto} .s{float:right;width:300px} .c{margin-right:330px} .f{clear:both}',
    sidebar: 'right',
    html: page('Float layout', `<div class="w"><div class="h">${HEAD}</div>${menu}${side}<div class="c">${article}</div><div class="f">${FOOT}</div></div>`),
  },
  {
    // a CSS grid: the sidebar comes first in the DOM but is drawn in the right track, and its
    // text sits in the same container as the body's paragraphs
    name: 'grid',
    css: 'body{margin:0;font:16px sans-serif} .g{display:grid;grid-template-columns:760px 320px;column-gap:24px;width:1104px;margin:0 auto} .s{grid-column:2;grid-row:2 / span 6} .g > p, .g > h1{grid-column:1} .top{grid-column:1 / span 2;grid-row:1} .f{grid-column:1 / span 2}',
    sidebar: 'right',
    html: page('Grid layout', `<div class="g">${side}<div class="top"><div class="h">${HEAD}</div>${menu}</div>${article}<div class="f">${FOOT}</div></div>`),
  },
  {
    // a fixed header bar drawn over the top of the page (after the body in the DOM), a left column
    name: 'fixed',
    css: 'body{margin:0;padding-top:120px;font:16px sans-serif} .bar{position:fixed;top:0;left:0;right:0;height:110px;background:#fff} .s{position:absolute;left:0;top:120px;width:260px} .c{margin-left:300px;width:760px} .f{margin-left:300px}',
    sidebar: 'left',
    html: page('Fixed header', `<div class="c">${article}</div>${side}<div class="f">${FOOT}</div><div class="bar"><div class="h">${HEAD}</div>${menu}</div>`),
  },
];

/** A thread: three floors in the centre track of a grid, and a "latest threads" column drawn on
 * the right (first in the DOM) whose entries are built like floors (a name, a date, a sentence). */
export const POSTS = [
  { author: 'harbourmaster', date: '2024-03-02 09:14', text: 'Does anyone know whether the early ferry on Saturdays will also stop at the north pier from April onwards?' },
  { author: 'islander_jo', date: '2024-03-02 10:41', text: 'I asked at the ticket office yesterday and they said the north pier stop starts on the first weekend of April.' },
  { author: 'quayside', date: '2024-03-02 12:05', text: 'Good to know, thanks. It will save us the long walk around the bay with the shopping every week.' },
];
export const LATEST = [
  { author: 'netmender', date: '2024-02-28 18:30', text: 'Selling a small rowing boat with oars and a trailer, collection from the harbour only.' },
  { author: 'tidewatcher', date: '2024-02-27 07:55', text: 'Spring tides next week: the lower car park will flood twice a day around noon.' },
  { author: 'gullfeeder', date: '2024-02-25 16:12', text: 'Lost a blue rain jacket on the afternoon ferry, please get in touch if you found it.' },
];
const floor = (p: { author: string; date: string; text: string }) => `<div class="r"><div class="u">${p.author}</div><div class="d">${p.date}</div><div class="x">${p.text}</div></div>`;
export const FORUM: LayoutFixture = {
  name: 'forum',
  css: 'body{margin:0;font:16px sans-serif} .g{display:grid;grid-template-columns:760px 320px;column-gap:24px;width:1104px;margin:0 auto} .s{grid-column:2;grid-row:1 / span 4} .g > .r, .g > h1{grid-column:1} .r{border-bottom:1px solid #ccc;padding:8px 0}',
  sidebar: 'right',
  html: page('Early ferry on Saturdays - Harbour board', `<div class="g"><div class="s">${LATEST.map(floor).join('')}</div><h1>Early ferry on Saturdays</h1>${POSTS.map(floor).join('')}</div>`),
};

/** A list page: the section's five stories in the centre, and a "most read" column of ten links
 * drawn on the left (first in the DOM, a plain `div`). */
export const STORIES = ['Two more morning ferries for the outer islands', 'Harbour wall repairs to start in May', 'New lifeboat crew members finish their training', 'School on the north island gets a second teacher', 'Fish market moves to the old customs house'];
export const POPULAR = ['Where to watch the seals this winter', 'The best walks along the east cliffs', 'Ten years of the island film festival', 'How the ferry timetable is decided', 'A guide to the harbour car parks', 'What the new parking charges mean', 'Island bakery wins a national prize', 'The lighthouse opens for visitors again', 'Birdwatchers count a record number of puffins', 'Tide tables for the coming months'];
export const LIST: LayoutFixture = {
  name: 'list',
  css: 'body{margin:0;font:16px sans-serif} .g{display:grid;grid-template-columns:280px 800px;column-gap:24px;width:1104px;margin:0 auto} .s{grid-column:1;grid-row:1 / span 2} .c{grid-column:2}',
  sidebar: 'left',
  html: page('News - Island Courier', `<div class="g"><div class="s"><div class="t">Most read</div><ul>${POPULAR.map((t, i) => `<li><a href="/popular/${i + 1}.html">${t}</a></li>`).join('')}</ul></div><div class="c"><h1>News</h1><ul>${STORIES.map((t, i) => `<li><a href="/news/2024/story-${i + 1}.html">${t}</a><div>March ${i + 2}, 2024 · A short summary of the story for the front page.</div></li>`).join('')}</ul></div></div>`),
};
