/** A served forum thread of several pages, for the merge tests (test/forum/merge.test.ts, the
 * crawl's test/e2e/threads.test.ts). */

/** A 5-page thread of 4 posts per page; every page repeats the main post at its top (as Discuz!
 * and others do), numbered floors, a pager with the current page. */
export function threadPage(n: number, base: string): string {
  const posts: string[] = [];
  const floors = [1, ...Array.from({ length: 4 }, (_, k) => (n - 1) * 4 + k + 2)];
  for (const f of n === 1 ? floors.slice(0, 5) : floors) {
    const who = f === 1 ? 'starter' : `user${f % 7}`;
    const when = `2024-03-${String(1 + Math.floor(f / 3)).padStart(2, '0')} ${String(8 + (f % 12)).padStart(2, '0')}:${String((f * 7) % 60).padStart(2, '0')}`;
    const text = f === 1 ? 'I bought a second-hand bike, and the gears slip under load. What should I check first?' : `Reply number ${f}: check the cable tension, then the hanger. It helped me, twice.`;
    posts.push(`<div class="post" id="pid${1000 + f}"><div class="head"><a href="/space-uid-${f % 7}.html">${who}</a> <span class="time">发表于 ${when}</span> <em>${f}#</em></div><div class="body"><p>${text}</p></div></div>`);
  }
  const pager = [1, 2, 3, 4, 5].map((k) => (k === n ? `<strong>${k}</strong>` : `<a href="${base}/thread-9-${k}.html">${k}</a>`)).join(' ') + (n < 5 ? ` <a class="next" rel="next" href="${base}/thread-9-${n + 1}.html">下一页</a>` : '');
  return `<html><head><title>Gears slip - Bikes - Board</title></head><body><h1>Gears slip</h1><div class="pg">${pager}</div><div id="posts">${posts.join('')}</div><div class="pg">${pager}</div></body></html>`;
}
