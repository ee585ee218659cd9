/**
 * Forum signals: repeated post blocks (sibling elements of one tag + class signature with long
 * non-link text; the share carrying a date and a short user link and no title-length link),
 * dated slots (the prose between one short dated line and the next), forum chrome words,
 * forum/Q&A types in JSON-LD, Q&A labels, dated segments, quotes, and what tells an article with a comment
 * thread from a thread (the prose before the first post, and the longest prose run outside the
 * posts against a post's length).
 */
import { Element } from 'domhandler';
import { linky, log1p, type PageScan } from './features-scan.js';
import { anchorsIn, subtreeTextPrefix } from '../../src/core/page-index.js';
import { DATE_LIKE } from '../list/signals.js';

export const FORUM_FEATURES = [
  'postBlocks', 'postBlockShare', 'postBlockDated', 'datedSlots', 'datedSlotMeanProse', 'datedSlotShare', 'postBlockMeanChars', 'postAuthorLinks', 'postTitleLinks', 'postLikeBlocks', 'postLikeShare', 'forumWords', 'ldForum', 'datedSegments',
  'datedSegmentShare', 'quoteBlocks', 'proseBeforePosts', 'runOutsidePosts',
  'itemDiscussion', 'profileLinks', 'profileLinkShare', 'timeTags', 'answerWords',
] as const;

/** Sibling groups smaller than this are not repeated post blocks (a thread page with one post
 * has no repetition to see; its other signals still count). */
const MIN_POST_BLOCKS = 2;
/** Non-link characters a post block needs on average: a forum post is a paragraph or more, a
 * list teaser a title and a line (measured on webforum52 vs lists: posts median > 150). */
const POST_MIN_CHARS = 60;
/** Prose (non-link characters) after a date line that makes it a post rather than a teaser. */
const DATED_SLOT_MIN_PROSE = 100;
/** A dated line is short: a post header, not a sentence that mentions a date. */
const DATED_LINE_MAX = 80;
/** Characters of a post searched for its date (dates sit in the post header). */
const POST_DATE_PREFIX = 600;
/** Link texts of 2 up to this many characters can be a user name; from TITLE_LINK_MIN on a title. */
const AUTHOR_LINK_MIN = 2;
const AUTHOR_LINK_MAX = 24;
const TITLE_LINK_MIN = 30;
/** Forum words are tested on short segments only (labels and buttons, not sentences). */
const FORUM_WORD_MAX = 40;
/** runOutsidePosts is capped here (an article body many times a comment's length says no more). */
const RUN_OUTSIDE_CAP = 4;
/** Forum chrome words, in short segments ("Reply", "Quote", "Posts: 123", "Joined" …): common
 * board-software labels in the languages we see, not of sites. Each alternative ends with "not
 * followed by a Latin letter" rather than \b, which never matches after "回复" or "Re:" + space. */
const FORUM_WORD_LIST = [
  // English
  'reply', 'replies', 'quote', 'posts?:?', 'joined:?', 'registered:?', 'member', 'members', 'moderator', 'administrator', 'thread', 'topic', 'report', 'permalink', 're:',
  // Chinese
  '回复', '回帖', '引用', '发表于', '發表於', '楼主', '樓主', '沙发', '板凳', '帖子', '主题', '注册时间', '积分', '積分', '精华', '只看该作者', '返回列表',
  // German
  'beiträge:?', 'registriert:?', 'mitglied', 'zitieren', 'antworten', 'antwort',
  // French
  'messages:?', 'inscrit', 'citer', 'répondre',
  // Spanish
  'respuesta', 'responder', 'citar', 'mensajes:?', 'registrado',
  // Italian
  'risposta', 'rispondi', 'citazione', 'messaggi',
  // Russian
  'ответить', 'цитата', 'сообщений',
  // Japanese
  '返信', '引用する', '投稿',
];
const FORUM_WORDS = new RegExp(`^(?:${FORUM_WORD_LIST.join('|')})(?![a-z])`, 'i');
/** Q&A labels ("3 answers", "Best answer", "个回答", "追问", "采纳"): a question page's answer blocks
 * are labelled so by Q&A software in the languages we see; a short segment only (a label or a
 * count), tested apart from FORUM_WORDS (measured: such a segment on 12% of the labelled forum
 * pages and 16% of WCXB's threads, on 1% of detail and list pages). */
const ANSWER_WORD_MAX = 24;
const ANSWER_WORDS = /^(?:\d+\s*)?(?:answers?|answered|asked|accepted answer|best answer|个回答|回答|追问|采纳|最佳答案|满意回答|推荐答案|其他回答|提问者|问题补充|ベストアンサー|回答する|réponses?|respuestas?)(?![a-z])/i;
/** Path words of user-profile links (board software and Q&A sites link every post's author to
 * one: `/member.php?u=`, `/users/123/name`, `/u/name`, `space-uid-1.html`, `/profile/…`): a URL
 * convention, not a site list. Matched as a whole path/query token. */
const PROFILE_WORDS = ['user', 'users', 'u', 'member', 'members', 'profile', 'profiles', 'people', 'space', 'uid', 'userinfo', 'memberlist', 'usercp'];
const PROFILE_LINK = new RegExp(`(?:^|[/?&._-])(?:${PROFILE_WORDS.join('|')})(?:$|[/?&=._-]|\\d)`, 'i');
/** Segments added to a page's count before the dated share is taken (a prior of that many undated
 * segments): a share read off a handful of segments is weak evidence, and a page of a dozen
 * segments — a small board index whose few entries each carry a date — otherwise sits beyond every
 * training page (0.43: 5 sd) and its type falls to the model's extrapolation (classify-9: the demo
 * forum index typed forum at 0.71; with the prior, list). Pages of a few hundred segments move by
 * a few per cent. Measured (bench:classify): this prior alone (version 5) CV 0.921 -> 0.918,
 * unseen-site forum recall 0.919 -> 0.929, WCXB lists 145 -> 134 of 168; with the ascending-floor
 * prior of features-floors.ts (version 6) 0.921, 0.914, 146 of 168. A prior of 5 does not move
 * the small index (replica of the CV). */
const DATED_SHARE_PRIOR = 10;
/** JSON-LD types of a discussion. */
const LD_FORUM = /^(?:discussionforumposting|qapage|question|socialmediaposting)$/i;

export function forumFeatures(s: PageScan): Record<(typeof FORUM_FEATURES)[number], number> {
  const { page, dom, totalChars, scriptScale, proseChars } = s;
  const nodes = page.nodes;
  const segments = page.segments;

  // Dated slots: the prose between one short dated line and the next. A forum thread is a chain
  // of them (date line, then a post body), whatever the markup (posts split over table rows
  // defeat sibling grouping); a list's dates are followed by a title and a line of teaser.
  let datedSegments = 0;
  let forumWords = 0;
  let answerWords = 0;
  let inSlot = false;
  let slotProse = 0;
  let datedSlots = 0;
  let datedSlotProse = 0;
  const closeSlot = () => {
    if (inSlot && slotProse * scriptScale >= DATED_SLOT_MIN_PROSE) {
      datedSlots++;
      datedSlotProse += slotProse;
    }
  };
  for (const seg of segments) {
    const text = seg.text;
    if (text.length <= DATED_LINE_MAX && DATE_LIKE.test(text)) {
      datedSegments++;
      closeSlot();
      slotProse = 0;
      inSlot = true;
    } else if (inSlot && seg.linkChars * 2 <= text.length) slotProse += text.length - seg.linkChars;
    if (text.length <= FORUM_WORD_MAX && FORUM_WORDS.test(text)) forumWords++;
    const label = text.trim();
    if (label.length <= ANSWER_WORD_MAX && ANSWER_WORDS.test(label)) answerWords++;
  }
  closeSlot();

  // Repeated post blocks: sibling elements of one tag+class signature, each with a long non-link
  // text; the share carrying a date and a link (the poster) is the forum signal.
  let postBlocks = 0;
  let postChars = 0;
  let postDated = 0;
  let postMean = 0;
  const groups = new Map<string, number[]>();
  for (let i = 0; i < dom.size; i++) {
    const n = nodes[i];
    if (!(n instanceof Element) || (dom.chars[i]! - dom.linkChars[i]!) * scriptScale < POST_MIN_CHARS) continue;
    const p = dom.parent[i]!;
    if (p < 0) continue;
    const key = `${p}|${n.name}|${(n.attribs.class ?? '').replace(/\d+/g, '').trim().split(/\s+/)[0] ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  }
  let postShortLinks = 0;
  let postTitleLinks = 0;
  // A post: a short link (its author), a date, prose, and no title-length link (a teaser's).
  const postLike = (i: number): { dated: boolean; short: boolean; title: boolean } => {
    let maxWidth = 0;
    let short = false;
    for (const a of anchorsIn(dom, i)) {
      const w = dom.linkChars[a]!;
      if (w > maxWidth) maxWidth = w;
      if (w >= AUTHOR_LINK_MIN && w <= AUTHOR_LINK_MAX) short = true;
    }
    const dated = DATE_LIKE.test(subtreeTextPrefix(dom, i, POST_DATE_PREFIX));
    return { dated, short, title: maxWidth * scriptScale >= TITLE_LINK_MIN };
  };
  let postLikeBest = 0;
  let bestLike: number[] = [];
  for (const g of groups.values()) {
    if (g.length < MIN_POST_BLOCKS) continue;
    let dated = 0;
    let chars = 0;
    let likes = 0;
    let shorts = 0;
    let titles = 0;
    const like: number[] = [];
    for (const i of g) {
      chars += dom.chars[i]! - dom.linkChars[i]!;
      if (dom.anchorCount[i]! === 0) continue;
      const pl = postLike(i);
      if (pl.dated) dated++;
      if (pl.short) shorts++;
      if (pl.title) titles++;
      if (pl.dated && pl.short && !pl.title) {
        likes++;
        like.push(i);
      }
    }
    // the group with the most post-like blocks, then the most dated, then the most text
    if (likes > postLikeBest || (likes === postLikeBest && (dated > postDated || (dated === postDated && chars > postChars)))) {
      postLikeBest = likes;
      postDated = dated;
      postBlocks = g.length;
      postChars = chars;
      postMean = chars / g.length;
      postShortLinks = shorts;
      postTitleLinks = titles;
      bestLike = like;
    }
  }

  // Article body vs comment thread. A thread opens with its first post; an article's comments
  // follow a body that is no post: the prose before the first post-like block, and the longest
  // run of prose outside them against the mean prose of a post (a long article body beside short
  // comments vs a thread whose longest text is inside a post).
  const postsFound = postLikeBest >= MIN_POST_BLOCKS;
  const inPost = new Uint8Array(postsFound ? dom.size : 0);
  if (postsFound) for (const b of bestLike) inPost.fill(1, b, dom.end[b]! + 1);
  const firstPost = postsFound ? bestLike[0]! : Infinity;
  let outRun = 0;
  let longestOutside = 0;
  let proseBeforePosts = 0;
  let proseInPosts = 0;
  for (const seg of segments) {
    const isLinky = linky(seg);
    const inside = postsFound && inPost[seg.index] === 1;
    const prose = seg.text.length - seg.linkChars;
    if (isLinky || inside) outRun = 0;
    else {
      outRun += prose;
      if (outRun > longestOutside) longestOutside = outRun;
    }
    if (!isLinky && !inside && seg.index < firstPost) proseBeforePosts += prose;
    if (!isLinky && inside) proseInPosts += prose;
  }

  // Links to user profiles: one per post in a thread (the same user may post twice), one or two
  // on an article (its author).
  const profiles = new Set<string>();
  let profileLinks = 0;
  for (const a of dom.anchors) {
    const href = (nodes[a] as Element).attribs.href ?? '';
    const local = href.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/#.*$/, '');
    if (!local || !PROFILE_LINK.test(local)) continue;
    profileLinks++;
    profiles.add(local);
  }

  return {
    postBlocks: log1p(postBlocks),
    postBlockShare: totalChars ? Math.min(1, postChars / totalChars) : 0,
    postBlockDated: postBlocks ? postDated / postBlocks : 0,
    datedSlots: log1p(datedSlots),
    datedSlotMeanProse: datedSlots ? log1p(datedSlotProse / datedSlots) : 0,
    datedSlotShare: proseChars ? Math.min(1, datedSlotProse / proseChars) : 0,
    postBlockMeanChars: log1p(postMean),
    postAuthorLinks: postBlocks ? postShortLinks / postBlocks : 0,
    postTitleLinks: postBlocks ? postTitleLinks / postBlocks : 0,
    postLikeBlocks: log1p(postLikeBest),
    postLikeShare: postBlocks ? postLikeBest / postBlocks : 0,
    forumWords: log1p(forumWords),
    ldForum: s.ldTypes.some((t) => LD_FORUM.test(t)) ? 1 : 0,
    datedSegments: log1p(datedSegments),
    datedSegmentShare: datedSegments / (segments.length + DATED_SHARE_PRIOR),
    quoteBlocks: log1p(s.quoteBlocks),
    proseBeforePosts: postsFound && proseChars ? Math.min(1, proseBeforePosts / proseChars) : 0,
    runOutsidePosts: postsFound && proseInPosts ? Math.min(RUN_OUTSIDE_CAP, longestOutside / (proseInPosts / bestLike.length)) : 0,
    itemDiscussion: log1p(s.itemDiscussion),
    profileLinks: log1p(profiles.size),
    profileLinkShare: s.aCount ? profileLinks / s.aCount : 0,
    timeTags: log1p(s.timeTags),
    answerWords: log1p(answerWords),
  };
}
