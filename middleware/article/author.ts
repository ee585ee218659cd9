/**
 * Author (sources §5 "Author"): the writer, never the editor or the outlet. JSON-LD author,
 * meta author fields, rel=author / itemprop=author / byline elements, then Chinese cues in the text
 * near the headline — 作者, 文/, 撰文, 记者 are tried, 编辑/责任编辑/来源 never are (GNE tries the
 * editor cues first and so often returns the editor).
 *
 * Citations (seed 000–004, sources §n) resolve in docs/sources.md.
 */
import { Element, type AnyNode } from 'domhandler';
import type { Page } from '../../src/core/page.js';
import { collapse, textOf } from '../../src/core/page.js';
import { classTokens } from './tree.js';
import { jsonLdArticles, metaFields, metaKeys } from './title.js';


/** Byline elements are looked for first within this many DFS nodes after the headline. */
const BYLINE_WINDOW = 400;
/** A byline longer than this is a sentence, not a name list. */
const MAX_AUTHOR_LENGTH = 80;
/** A Latin-script byline of this many words with a figure or a colon has run into a headline. */
const HEADLINE_WORDS = 5;
/** Latin-script bylines longer than this many words are sentences (four names of two words, "and"s). */
const MAX_LATIN_NAME_WORDS = 10;
/** Elements scanned for Chinese cues: within this many DFS nodes after the headline (bylines sit
 * between the headline and the body) or in the last lines of the body. */
const CUE_WINDOW = 300;
/** Meta keys naming the writer (read through `metaFields`: Dublin Core first, as Readability does). */
const META_KEYS = ['dc:creator', 'dcterm:creator', 'dcterms:creator', 'author', 'article:author', 'parsely-author', 'sailthru.author', 'byl', 'cxenseparse:author', 'citation_author', 'og:article:author', 'article:author_name'];
/** Chinese writer cues (not 编辑/责任编辑/来源). The name runs to the next space or cue ("本报记者张三发自北京").
 * "文：" counts only outside running text (原文：, 中文： are not bylines); "文字" only with a separator
 * ("文字：张三", "文字/张三": "制作文字UI", "切换 UI 文字时出现卡顿" are prose). "原创：" opens
 * the byline of reposted self-media articles ("原创： 张三 公众号名"). */
const ZH_CUE_WORDS = [
  '作者', '撰文', '撰稿', String.raw`执笔人?\s*[:：/／]`, String.raw`文\s*[/／|｜]`, String.raw`(?<!\p{Script=Han})文\s*[:：]`,
  '记者', '本报记者', '本台记者', '通讯员', String.raw`(?:本报|(?<!\p{Script=Han}))实习生(?=[\s:：])`, String.raw`文字\s*[:：/／|｜]`, String.raw`原创\s*[:：]`,
];
/** A columnist's title between the cue and the name ("特约撰稿人"). */
const ZH_CUE_TITLE = String.raw`(?:[\p{Script=Han}]{2,10}?(?:专栏作者|特约作者|特约撰稿人|特约记者|记者|作者)\s*)?`;
/** The names (captured): joined pairs ("张&李"), Han names, a Latin name, more names after separators. */
const ZH_CUE_NAMES = String.raw`((?:\p{Script=Han}{1,4}[&＆_~]\p{Script=Han}{1,4}|[\p{Script=Han}·]{2,6}|[A-Za-z][\w .-]{1,30}?)(?:[\s、，,和及]+[\p{Script=Han}·]{2,4}){0,5})`;
/** What may follow the names: a separator, or the next cue of the credit line. */
const ZH_CUE_END = String.raw`(?=$|[\s　|｜/（(）)】\]，,。]|编辑|责编|来源|发布|发自|时间|日期|\d)`;
const ZH_CUE = new RegExp(String.raw`(?:${ZH_CUE_WORDS.join('|')})\s*[:：]?\s*` + ZH_CUE_TITLE + ZH_CUE_NAMES + ZH_CUE_END, 'u');
/** A two-character name spaced out to the width of three after a writer cue ("作者: 赵 培：单位"). */
const SPACED_NAME = /(?<=(?:^|[\s:：])(?:作者|撰文|记者)\s*[:：]\s*)(\p{Script=Han})[ \u3000]{1,2}(\p{Script=Han})\s*(?:[:：;；]\s*|(?=[,，、(（]|$))/u;
/** The poster of a blog entry or forum post, in the line the software writes around it:
 * "本贴由大卫于2005年8月12日…发表", "由海姑娘张贴 @ 2005-06-14", "ggjjzhzz 发表于 2005-9-15",
 * "发布时间 2005/03/15 22:36:13 by duscha". */
const POSTED_BY = /(?:^|[\s本贴帖文])由\s*([\p{Script=Han}\w·&]{2,16}?)\s*(?:于\s*\d|张贴|发表|发布)|^([\p{Script=Han}\w·&]{2,16})\s*(?:发表于|发布于|发表在)\s*\d|\d{1,2}:\d{2}(?::\d{2})?\s+by\s+([\p{Script=Han}\w·&]{2,16})(?=\s|$)/u;
/** "2004年7月16日08:19 [ 黄宇 ] 来源：[ 国际金融报 ]": the writer in brackets in a portal's dateline,
 * right before the source (spaces or stray symbols, even private-use glyphs, between them). */
const DATELINE_BRACKET = /\d[\d:：\s]*[\[【]\s*([\p{Script=Han}·]{2,4}(?:\s+[\p{Script=Han}·]{2,4}){0,3})\s*[\]】][^\p{L}\p{N}]{0,4}(?:来源|出处)/u;
/** "石佳/中国青年报": writer / outlet at the start of the body. */
const NAME_SLASH_OUTLET = /^([\p{Script=Han}·]{2,4})\s*[/／]\s*\S{2,12}$/u;
/** A closing credit on its own line sits within this many DFS nodes after the body's last paragraph
 * and is no longer than a bracketed name list. */
const TRAILING_LINE_NODES = 12;
const TRAILING_LINE_MAX = 24;
/** "……举行。（张巨峰）", "（记者 张三）", "(文/图 张三 李四)": the writer in brackets closing the body. */
const TRAILING_NAME = /[（(](?:记者|作者|文(?:\s*[/／]\s*图)?\s*[/／]?)?\s*([\p{Script=Han}·]{2,4}(?:[\s、][\p{Script=Han}·]{2,4}){0,3})\s*[）)]\s*$/u;
/** A dateline of a self-media post: "华夏人文 2020-03-09 18:14:21", "原创 GameForce 2019-09-04 22:18"
 * (a badge before the account), "2019-05-17 · 苏皖城市报道", "2020-06-05 20:35 张三 李四" (writers after the time). */
const DATELINE_NAME = /^(?:(?:原创\s+)?([\p{Script=Han}\w·]{2,12})\s+\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}[\d\s:：日]*|\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}[\d\s:：日]*[·|｜]\s*([\p{Script=Han}\w·]{2,12})|\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}日?\s+\d{1,2}[:：]\d{2}(?:[:：]\d{2})?\s+([\p{Script=Han}·]{2,6}(?:\s+[\p{Script=Han}·]{2,6}){0,4}))$/u;
/** Picture captions and credits ("图片来源：", "资料图：", "图/"): their names are photographers. */
const CAPTION_LINE = /^(?:图片来源|图片|资料图|图源|图\s*[/／:：]|摄影|photo|image)/i;
/** A name followed by 摄 / 摄影 is a photo credit. */
const PHOTO_AFTER = /^\s*(?:摄|摄影|拍摄|供图)/;
/** A line that is only a Chinese name list (2–4 characters per name). */
const NAME_LINE = /^[\p{Script=Han}]{2,4}(?:[、，,\s]+[\p{Script=Han}]{2,4}){0,4}$/u;
/** Interface words that look like two-character names (关注 "follow" starts with the surname 关; 关于我
 * "about me" is a menu entry, 文章目录 "contents" the heading of a table of contents). */
const UI_WORD = /^(?:关注|关于|目录|文章(?:目录|列表|标签|分类|归档)|分享|收藏|点赞|评论|举报|订阅|登录|注册|请|欢迎|首页|更多|返回|打印|转发|回复|阅读|推荐|热门|相关|原创|置顶)/;
/** A name line directly under the headline (the writers of a paper reposted in a forum or an
 * archive) is within this many DFS nodes of it, even inside the body. */
const NAME_UNDER_HEADLINE = 12;
/** A credit line continued on the next lines: at most this many lines, each this short, the cue
 * within the first few characters (an outlet prefix such as 本报). */
const CREDIT_LINES = 3;
const CREDIT_LINE_MAX = 40;
const CREDIT_PREFIX_MAX = 4;
/** A poster line is short (name, date, a comment count). */
const POSTED_LINE_MAX = 100;
/** The posting account's name follows the headline closely (DFS nodes). */
const USER_WINDOW = 80;
/** Login boxes share the user-name classes. */
const LOGIN = /sign ?in|sign ?up|log ?in|log ?out|register|username|account|join|se connecter|anmelden|登入|登录|注册|退出/i;
/** Class tokens of a posting account's name block. */
const USER_TOKENS = new Set(['user', 'media', 'account', 'uploader', 'publisher', 'username', 'nickname', 'uname']);
const NAME_TOKENS = new Set(['name', 'nick', 'nickname', 'username', 'uname', 'card']);
/** Body paragraphs longer than this are searched for a cue in their first characters only
 * ("新京报快讯（记者 裴剑飞）今日……"). */
const LEAD_CUE_CHARS = 40;
/** Text that is not a person (outlets, roles, generic labels, software teams credited in meta). */
const NOT_A_NAME_WORDS = [
  'admin', 'administrator', 'guest', 'staff', 'editor', 'authors?', 'written by', 'about(?: me| us)?', '作者', '网络', '匿名', '佚名', '未知', '本站', '网友', '小编', '编辑', '责任编辑',
  '来源', '原创', '转载', '楼主', '系统', '管理员', 'unknown', 'none', 'null',
];
/** Endings of a credit that is not a person ("… staff", "… desk"), and link-like text. */
const NOT_A_NAME_TAILS = [
  String.raw`\bteam$`, String.raw`^(?:our|from our)\s.*\b(?:staff|reporters?|correspondents?|desk)$`,
  String.raw`\s(?:staff|desk|newsroom|wires?|agencies)$`, 'https?:', String.raw`www\.`, '@',
  '(?:文章|行情|推荐|排行|列表|专栏|热点|导航|频道|更多)$',
];
const NOT_A_NAME = new RegExp(`^(?:${NOT_A_NAME_WORDS.join('|')})$|${NOT_A_NAME_TAILS.join('|')}`, 'i');
/** Words that follow 记者/作者 in prose ("记者表示", "记者了解到"): not names. */
const ZH_PROSE_VERBS = [
  '表示', '介绍', '指出', '了解', '获悉', '采访', '发现', '看到', '注意到', '观察', '经历', '得知', '调查', '走访', '联系', '询问',
  '证实', '查实', '梳理', '统计', '测算', '核实', '透露', '分析', '讲述', '提供', '须知', '简介', '执笔', '暂无', '本人', '个人',
  '网友', '读者', '未知', '手记', '自曝', '见面', '所有', '赞赏', '[的了在从对向与和是将也就都为等据或及]', '中(?!国)',
];
/** Titles closing a phrase ("……主任"): the cue introduced a person's role, not the writer. */
const ZH_ROLE_TAILS = ['理事', '主任', '教授', '院长', '主席', '经理', '总监', '部长', '局长', '书记', '专家', '研究员', '秘书长', '董事长', '总裁'];
const ZH_NOT_NAME = new RegExp(`^(?:${ZH_PROSE_VERBS.join('|')})|[中时后的了称说摄]$|(?:${ZH_ROLE_TAILS.join('|')})$`);
/** Common Chinese surnames (the ~150 most frequent, covering ~90% of people): a name after 记者 in
 * running text must start with one, or the cue was prose ("记者透露", "记者讲述自己"). */
const SURNAMES = new Set([...(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈' +
  '姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤' +
  '常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季' +
  '裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦' +
  '戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻' +
  '苑迟邝'
)]);
/** Endings of outlet and organisation names (网易, 新京报, 新华社, 环球网 …): not a writer. */
const OUTLET = /(?:网|网络|报|社|台|新闻|消息|日报|晚报|周刊|频道|科技|财经|传媒|集团|公司|杂志|资讯|中心|政府|网易|新浪|整理|综合)$|^(?:网易|新浪|腾讯|搜狐|凤凰|人民网|新华|央视|中新)/;
/** A Chinese name list: 2–4 Han characters (or ·-joined transliterations) per name. */
const ZH_NAME_LIST = /^(?:[\p{Script=Han}·]{2,8}(?:[\s、，,]+[\p{Script=Han}·]{2,8}){0,5}|(?=[^\s]*[A-Za-z])[\p{Script=Han}A-Za-z0-9·_]{2,16}|\p{Script=Han}{1,4}[&＆_~]\p{Script=Han}{1,4})$/u;
/** A month-name date (with its weekday) after a Latin-script byline, and everything after it. */
const LATIN_DATE_TAIL = /\s*(?:\b(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}).*$/i;
/** A job title closing a Latin-script byline (one capitalised qualifier, then the role). */
const JOB_TITLE_TAIL = /(?<=\p{Ll}\.?)\s+(?:[A-Z][a-z]+\s+)?(?:Editor|Reporter|Correspondent|Writer|Columnist|Contributor|Producer)$/u;
/** Credits after the writer's name: editors, reviewers, translators, photographers, illustrators. */
const OTHER_CREDIT = /[\s,;]+(?:and\s+)?(?:(?:edited|reviewed|fact[- ]checked|translated|photograph(?:ed|s)|photos?|illustrat(?:ed|ions?)|images?|video)\s+by|editor\s*:|redaktion\s*:|traduit\s+par|édité\s+par|übersetzt\s+von)\b/i;
/** A contact address in brackets after a name: a URL or an e-mail address. */
const CONTACT_TAIL = /\s*[(<[]\s*(?:https?:\/\/|www\.|mailto:|[^\s()<>[\]@]+@)[^()<>[\]]*[)>\]]\s*$/i;
/** Lower-case words inside Latin-script names and name lists. */
const NAME_PARTICLE = new Set(['and', 'und', 'et', 'y', 'e', 'i', 'og', 'en', 'de', 'del', 'della', 'der', 'den', 'des', 'di', 'da', 'das', 'do', 'dos', 'du', 'la', 'le', 'van', 'von', 'zu', 'ter', 'ten', 'bin', 'ibn', 'al', 'el', 'of', 'the', 'st', 'mc']);
/** English byline prefix. */
const BY = /^\s*(?:by|written by|posted by|von|par|por|di|door|автор)\s*[:：]?\s+/i;

function cleanName(raw: string | undefined, siteNames: string[] = []): string | undefined {
  if (!raw) return undefined;
  // "Jane Doe (https://example.org/jane)", "Jane Doe <jane@example.org>": the name without its address
  let s = collapse(raw).replace(CONTACT_TAIL, '').replace(BY, '').replace(/^(?:作者|撰文|记者)\s*[:：]\s*/, '');
  s = s.split(/\s*(?:责任编辑|责编|责任|编辑|来源|出处|发布时间|发布于|发布日期|发表于|发表时间|发表日期|时间|日期|[\[【（]|\((?=\p{Script=Han}))/u)[0]!.trim();
  // "信报记者 蔡雪婧", "总台记者 张倩": the outlet's role prefix; "姚峰 上海报道", "陈智 整合": a role suffix
  // photographers are not the writer
  if (/(?:摄|摄影|供图|图)$/u.test(s)) return undefined;
  s = s.replace(/^\S{0,8}?(?:记者|通讯员|作者)\s*[:：]?\s*/u, '').replace(/(?:\s+\S{0,6}报道|\s*(?:整合|整理|编译|综合)|\s+记者\S*)$/u, '').trim();
  // cut at a date, a separator or a role
  s = s.split(/\s*(?:[|｜•·]\s|\s[-–—]\s|\bon\s+\w+\s+\d|\d{4}[-/年.]|\b(?:last\s+)?updated\b|\bpublished\b|发布时间|发布于|编辑)/i)[0]!.trim();
  // "Jane Doe Edited by John Roe", "Jane Doe, photographs by …": the writer, not the other credits
  s = s.split(OTHER_CREDIT)[0]!.trim();
  // "Joshua Sokol May 20, 2019", "Lucas Nolan22 Dec 2016": a displayed date glued to the name;
  // "Ben Silverman Games Editor": the writer's job title after the name
  s = s.replace(LATIN_DATE_TAIL, '').replace(JOB_TITLE_TAIL, '').trim();
  // "澎湃号 > 中国广州发布": the last step of a channel path
  if (/\s[>›»]\s/.test(s)) s = s.split(/\s[>›»]\s/).pop()!.trim();
  // an account name beside its follow button ("中国广州发布 关注")
  s = s.replace(/\s*\+?\s*(?:关注|订阅|follow)$/iu, '').replace(/[,，;；:：]+$/, '').trim();
  if (!s || s.length > MAX_AUTHOR_LENGTH || NOT_A_NAME.test(s)) return undefined;
  if (!/\p{L}/u.test(s) || /^[[【(（]/.test(s)) return undefined;
  if (/\p{Script=Han}/u.test(s)) {
    // Chinese: a name list, not an outlet, not a verb after a cue, not the site's name
    if (!ZH_NAME_LIST.test(s) || OUTLET.test(s) || ZH_NOT_NAME.test(s) || UI_WORD.test(s)) return undefined;
  } else {
    const words = s.split(/\s+/).length;
    if (words > MAX_LATIN_NAME_WORDS) return undefined;
    // a name list has no figures or colons; "Michael Isikoff Trump’s inauguration: ticket packages,
    // $25,000 …" is a name run into a headline (short handles like "user42" stay)
    if (words >= HEADLINE_WORDS && /[\d:$%]/.test(s)) return undefined;
  }
  if (siteNames.some((n) => n && (n === s || (n.includes(s) && !namedAfter(n, s))))) return undefined;
  return s;
}

/** A site named after its writer in the possessive ("阿飞的小屋", "Jane's Notes"):
 * the name it opens with is a person's, not the outlet's (a name the site's name merely holds —
 * "Guardian" in "The Guardian" — stays out). */
const POSSESSIVE = /^(?:\s*的|['’]s?(?:\s|$))/u;
function namedAfter(site: string, name: string): boolean {
  return site.startsWith(name) && POSSESSIVE.test(site.slice(name.length));
}

/** Names of the site (og:site_name, the parts of `<title>` around the headline): never the writer. */
function siteNames(page: Page): string[] {
  const out: string[] = [];
  const sn = page.meta.get('og:site_name') ?? page.meta.get('application-name');
  if (sn) out.push(collapse(sn));
  // only the last part: titles often carry the author before the site ("Headline | Jane Doe | Site")
  const parts = page.title.split(/\s*[-|_–—]\s*/).map((p) => p.trim()).filter(Boolean);
  if (parts.length > 1) out.push(parts[parts.length - 1]!);
  return out;
}

function jsonLdAuthor(page: Page, sites: string[]): string | undefined {
  // article objects first, then any object that names an author (types vary: WebPage, Report …)
  const objs = [...jsonLdArticles(page), ...page.jsonLd().filter((o) => o.author !== undefined)];
  for (const o of objs) {
    const a = o.author ?? o.creator;
    const list = (Array.isArray(a) ? a : [a]).flatMap((x): (string | { name: string; person: boolean })[] => {
      if (typeof x === 'string') return [x];
      if (x && typeof x === 'object') {
        const t = String((x as Record<string, unknown>)['@type'] ?? '');
        if (/organization/i.test(t)) return [];
        const name = (x as Record<string, unknown>).name;
        // a declared Person is a person even when the site bears their name (a personal blog)
        return typeof name === 'string' ? [{ name, person: /person/i.test(t) }] : [];
      }
      return [];
    });
    const names = list.map((x) => (typeof x === 'string' ? cleanName(x, sites) : cleanName(x.name, x.person ? [] : sites))).filter((x): x is string => Boolean(x));
    if (names.length) return [...new Set(names)].join(', ');
  }
  return undefined;
}

function metaAuthor(page: Page, sites: string[]): string | undefined {
  const meta = metaFields(page);
  for (const k of META_KEYS) {
    const v = cleanName(meta.get(k), sites);
    if (v) return allMetaNames(page, k, sites) ?? v;
  }
  return undefined;
}

/** Every author a page declares under one key (one `<meta name="citation_author">` or
 * `DC.Creator` per writer), read from the attribute kind that `metaFields` prefers; undefined when
 * there are fewer than two. Names written "Last, First" are joined by semicolons. */
function allMetaNames(page: Page, key: string, sites: string[]): string | undefined {
  for (const attrName of ['property', 'name', 'itemprop'] as const) {
    const names: string[] = [];
    for (const n of page.nodes) {
      if (!(n instanceof Element) || n.name !== 'meta') continue;
      const attr = n.attribs[attrName];
      if (!attr || !n.attribs.content) continue;
      if (!metaKeys(attr).includes(key)) continue;
      const v = cleanName(n.attribs.content, sites);
      if (v && !names.includes(v)) names.push(v);
    }
    if (names.length) return names.length > 1 ? names.join(names.some((x) => x.includes(',')) ? '; ' : ', ') : undefined;
  }
  return undefined;
}

/** rel=author, itemprop=author, class author/byline elements: the first short one after the
 * headline (bylines sit between the headline and the body; earlier ones are in headers and
 * sidebars: "follow our authors" boxes, other stories' bylines), else the first in the page. */
function elementAuthor(page: Page, sites: string[], anchor: number): string | undefined {
  if (anchor > 0) {
    const after = elementAuthorFrom(page, sites, anchor, anchor, anchor + BYLINE_WINDOW);
    if (after) return after;
  }
  return elementAuthorFrom(page, sites, anchor, 0, page.nodes.length);
}

function elementAuthorFrom(page: Page, sites: string[], anchor: number, from: number, to: number): string | undefined {
  for (let i = from; i < page.nodes.length && i < to; i++) {
    const node = page.nodes[i]!;
    if (!(node instanceof Element)) continue;
    const a = node.attribs;
    let hit = false;
    if (a.rel === 'author' || (a.itemprop ?? '').toLowerCase() === 'author') hit = true;
    else if (a.class || a.id) {
      const t = classTokens(node);
      hit = t.includes('author') || t.includes('byline') || t.includes('writer');
      // the posting account of self-media platforms ("media-user", "user-card-name"), only next
      // to the headline: elsewhere user names are commenters or the reader's own login box
      if (!hit && i > anchor && i - anchor <= USER_WINDOW && t.some((x) => USER_TOKENS.has(x)) && t.some((x) => NAME_TOKENS.has(x) || x === 'user')) {
        const text = collapse(textOf(node));
        if (!LOGIN.test(text)) hit = true;
      }
    }
    if (!hit || insideComment(node)) continue;
    const nameEl = findItempropName(node);
    const text = collapse(textOf(nameEl ?? node));
    if (text.length > MAX_AUTHOR_LENGTH) continue;
    // microdata that types the author as a Person: a person even on a site named after them
    const person = /schema\.org\/Person/i.test(a.itemtype ?? '');
    const v = cleanName(text, person ? [] : sites);
    if (v && !runsIntoText(v)) return v;
  }
  return undefined;
}

/** Names are capitalised but for particles (de, van, von, bin …): in an element's text, two or more
 * other lower-case words make a sentence ("Matt Bai The real problem behind fake news": a name run
 * into a story's headline in an author box). A single lower-case handle ("mcupdate") stays. Declared
 * fields (JSON-LD, meta) are taken as written. */
function runsIntoText(name: string): boolean {
  if (/\p{Script=Han}/u.test(name)) return false;
  const words = name.split(/\s+/);
  return words.length >= 3 && words.filter((w) => /^\p{Ll}/u.test(w) && !NAME_PARTICLE.has(w.replace(/[.,]$/, ''))).length >= 2;
}

/** The element holding the name inside a byline element: microdata `itemprop=name`, else a
 * `rel=author` / `itemprop=author` link inside it ("By <a rel=author>Jane Doe</a><br>Health News":
 * the name, not the desk line beside it). */
function findItempropName(el: Element): Element | undefined {
  const stack: AnyNode[] = [...el.children].reverse();
  let linked: Element | undefined;
  while (stack.length) {
    const n = stack.pop()!;
    if (n instanceof Element) {
      const itemprop = (n.attribs.itemprop ?? '').toLowerCase();
      if (itemprop === 'name') return n;
      if (!linked && (n.attribs.rel === 'author' || itemprop === 'author') && collapse(textOf(n))) linked = n;
      for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]!);
    }
  }
  return linked;
}

function insideComment(node: AnyNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p instanceof Element && (p.attribs.class || p.attribs.id) && classTokens(p).some((t) => t === 'comment' || t === 'comments' || t === 'related')) return true;
  }
  return false;
}

/** Chinese cue words in the lines after the headline (and the last lines of the body). */
function cueAuthor(page: Page, sites: string[], anchor: number, bodyStart: number, tailFrom?: number, headline?: number): { strong?: string; weak?: string } {
  let trailing: string | undefined;
  let posted: string | undefined;
  let weak: string | undefined;
  const segs = page.segments;
  const headlineText = page.title.split(/\s*[-|_–—]\s*/)[0]?.trim();
  for (let si = 0; si < segs.length; si++) {
    const s = segs[si]!;
    const near = s.index >= anchor - 20 && s.index <= Math.max(anchor + CUE_WINDOW, bodyStart);
    const tail = tailFrom !== undefined && s.index >= tailFrom && s.index <= tailFrom + CUE_WINDOW;
    if (!near && !tail) continue;
    const head = (s.text.length > 200 ? s.text.slice(0, LEAD_CUE_CHARS) : s.text).replace(SPACED_NAME, '$1$2 ');
    if (CAPTION_LINE.test(head)) continue;
    const m = ZH_CUE.exec(head);
    // "中新社记者 贾天勇 摄": the photographer of a picture, not the writer
    if (m && PHOTO_AFTER.test(head.slice(m.index + m[0].length))) continue;
    if (m) {
      const v = cleanName(m[1], sites);
      // a cue inside running text (a Han character before it) must be followed by a real name
      // starting with a common surname: "记者透露", or 作者 inside 工作者 ("广大工作者毫不松懈");
      // in a byline (no Han character before the cue) 作者/文/ may introduce a pen name
      const prose = m.index > 0 && /\p{Script=Han}/u.test(head[m.index - 1]!);
      if (v && (!prose || !/^\p{Script=Han}/u.test(v) || SURNAMES.has(v[0]!))) {
        // credits split over consecutive short lines ("本报实习生 甲 乙" / "本报记者 丙 丁"): one list
        const names = [v];
        for (let k = si + 1; s.text.length <= CREDIT_LINE_MAX && k < segs.length && k <= si + CREDIT_LINES; k++) {
          const t = segs[k]!.text;
          const m2 = t.length <= CREDIT_LINE_MAX ? ZH_CUE.exec(t) : null;
          const v2 = m2 && m2.index <= CREDIT_PREFIX_MAX && !PHOTO_AFTER.test(t.slice(m2.index + m2[0].length)) ? cleanName(m2[1], sites) : undefined;
          if (!v2) break;
          names.push(v2);
        }
        // a name repeated by the next credit line ("采写：记者 甲 乙" / "作者：甲 乙") counts once
        return { strong: [...new Set(names.flatMap((n) => (n.includes('、') ? [n] : n.split(/\s+/))))].join(' ') };
      }
    }
    if (!weak && near && s.index <= bodyStart && s.text.length <= 60) {
      const d = DATELINE_NAME.exec(s.text);
      weak = d ? cleanName(d[1] ?? d[2] ?? d[3], sites) : undefined;
      if (!weak) {
        const b = DATELINE_BRACKET.exec(s.text);
        weak = b ? cleanName(b[1], sites) : undefined;
      }
    }
    // a name alone on the line under the headline ("胡平", "赵延东、风笑天")
    const underHeadline = (s.index > anchor && s.index < bodyStart) || (headline !== undefined && headline >= 0 && s.index > headline && s.index <= headline + NAME_UNDER_HEADLINE);
    // (not the headline itself, repeated: a title may start with a surname, "梅花初开")
    if (!weak && underHeadline && s.linkChars === 0 && NAME_LINE.test(s.text) && SURNAMES.has(s.text[0]!) && !UI_WORD.test(s.text) && s.text !== headlineText) {
      weak = cleanName(s.text, sites);
    }
    if (!posted && s.text.length <= POSTED_LINE_MAX) {
      const p = POSTED_BY.exec(s.text);
      if (p) posted = cleanName(p[1] ?? p[2] ?? p[3], sites);
    }
    if (!weak && near && s.text.length <= 30) {
      const o = NAME_SLASH_OUTLET.exec(s.text);
      weak = o ? cleanName(o[1], sites) : undefined;
    }
    // the closing credit: in the body's last paragraph, or alone on a line just after it ("（袁源）")
    if (tailFrom !== undefined && !trailing && (s.index === tailFrom || (s.index > tailFrom && s.index <= tailFrom + TRAILING_LINE_NODES && s.text.length <= TRAILING_LINE_MAX && /^[（(]/.test(s.text)))) {
      const t = TRAILING_NAME.exec(s.text);
      if (t) trailing = cleanName(t[1], sites);
    }
  }
  return { weak: weak ?? posted ?? trailing };
}

/** A byline cue word opening a short line, in several languages ("By", "Par", "Von", "Por", "Door",
 * "Av", "Autor:" …); a line that is only the cue puts the name on the next line. */
const BYLINE_CUE = /^(?:(?:written|posted|words|text|story|reporting)\s+by|by|von|par|por|door|av|af|przez|autor(?:in)?\s*:|auteur\s*:|автор\s*:?|tekst\s*:)\s*[:：]?(?:\s+|$)/i;
/** A short byline line ("By Jane Doe", "Par Sébastien Farcis"). */
const BYLINE_LINE_MAX = 60;
/** A name list: capitalised words (or particles), joined by commas, "and", "&". */
function looksLikeNames(s: string): boolean {
  const words = s.replace(/\s*(?:,|&|\band\b|\bund\b|\bet\b|\by\b|\ben\b|\bog\b|\boch\b|\bi\b|\be\b)\s*/g, ' ').trim().split(/\s+/);
  if (!words.length || words.length > MAX_LATIN_NAME_WORDS) return false;
  return words.every((w) => /^[\p{Lu}]/u.test(w) || NAME_PARTICLE.has(w)) && words.some((w) => /^\p{Lu}/u.test(w));
}

/** A plain-text byline next to the headline: "By Jane Doe" on one line, or "by" on a line of its
 * own with the name on the next (the cue and the name in separate elements). */
function textByline(page: Page, sites: string[], anchor: number, bodyStart: number): string | undefined {
  const segs = page.segments;
  // between the headline and the body's first paragraph (widgets below the body say "by <vendor>")
  for (let si = 0; si < segs.length; si++) {
    const s = segs[si]!;
    if (s.index < anchor - 20) continue;
    if (s.index > bodyStart) break;
    if (s.text.length > BYLINE_LINE_MAX) continue;
    const m = BYLINE_CUE.exec(s.text);
    if (!m) continue;
    let rest = s.text.slice(m[0].length).trim();
    // a cue that is itself link text is a label ("by <vendor>" in a widget), not a byline
    if (s.linkChars > rest.length) continue;
    if (!rest && si + 1 < segs.length && segs[si + 1]!.text.length <= BYLINE_LINE_MAX) rest = segs[si + 1]!.text;
    // the name, without a date or other credits after it
    const v = rest ? cleanName(rest, sites) : undefined;
    if (v && !/\p{Script=Han}/u.test(v) && looksLikeNames(v)) return v;
    // a handle linked to its own profile is a person even when the site bears it (a personal blog)
    const handle = rest ? cleanName(rest) : undefined;
    if (handle && profileHandle(page, s.index, handle)) return handle;
  }
  return undefined;
}

/** An account handle ("bigsk1", "jdoe") after a byline cue counts as the writer when it is the text
 * of a link to its own profile: a link, just after the cue, whose URL path ends in the handle. */
const HANDLE = /^[\p{L}\p{N}][\p{L}\p{N}_.-]{1,38}$/u;
/** Where a profile lives: the handle alone as the path ("/jdoe", "/@jdoe" on a code host or a social
 * site), or under one of these folders (a section "/category/notes" is no profile). */
const PROFILE_PATH = new Set(['u', 'user', 'users', 'author', 'authors', 'people', 'profile', 'profiles', 'member', 'members', 'space', 'home']);
/** DFS nodes after the cue searched for the profile link (the cue, an <em>, the link, its text). */
const HANDLE_LINK_WINDOW = 8;
function profileHandle(page: Page, from: number, handle: string): boolean {
  if (!HANDLE.test(handle)) return false;
  const want = handle.toLowerCase();
  for (let i = from; i < Math.min(page.nodes.length, from + HANDLE_LINK_WINDOW); i++) {
    const n = page.nodes[i];
    if (!(n instanceof Element) || n.name !== 'a' || !n.attribs.href) continue;
    if (collapse(textOf(n)).toLowerCase() !== want) continue;
    try {
      const parts = decodeURIComponent(new URL(n.attribs.href, page.url).pathname).toLowerCase().split('/').filter(Boolean);
      const last = parts.pop()?.replace(/^[@~]/, '');
      if (last === want && (parts.length === 0 || (parts.length === 1 && PROFILE_PATH.has(parts[0]!)))) return true;
    } catch {
      // an unparsable href names no profile
    }
  }
  return false;
}

/**
 * A declared author that is an account handle ("CC7567") shown on the page under the person's
 * name: the text of the profile link whose URL ends in the handle ("/u/CC7567" → "James Akinaka").
 */
function displayName(page: Page, declared: string): string {
  if (/\s/.test(declared) || declared.length < 3) return declared;
  const handle = declared.toLowerCase();
  for (const n of page.nodes) {
    if (!(n instanceof Element) || n.name !== 'a' || !n.attribs.href || !n.attribs.href.toLowerCase().includes(handle)) continue;
    let path: string;
    try {
      const u = new URL(n.attribs.href, 'http://h/');
      path = decodeURIComponent(u.pathname).replace(/\/+$/, '').toLowerCase();
    } catch {
      continue;
    }
    if (!path.endsWith(`/${handle}`)) continue;
    const text = collapse(textOf(n));
    if (text.length <= MAX_AUTHOR_LENGTH && text.toLowerCase() !== handle && /\s/.test(text) && looksLikeNames(text) && !runsIntoText(text)) return text;
  }
  return declared;
}

export interface AuthorOptions {
  /** DFS index of the headline. */
  anchor?: number;
  /** DFS index of the body's last paragraph (credits often close Chinese articles). */
  tail?: number;
  /** DFS index of the body's first paragraph. */
  bodyStart?: number;
  /** DFS index of the headline element even when the body starts above it (a body that took in
   * the breadcrumb and the headline). */
  headline?: number;
}

export function extractAuthor(page: Page, options: AuthorOptions = {}): string | undefined {
  const sites = siteNames(page);
  // An explicit writer cue in the text (作者：, 记者 X) beats meta fields, which Chinese sites often
  // fill with the editor or the outlet; the weaker forms (dateline names, trailing brackets) come last.
  const cue = cueAuthor(page, sites, options.anchor ?? 0, options.bodyStart ?? options.anchor ?? 0, options.tail, options.headline);
  const declared = jsonLdAuthor(page, sites) ?? metaAuthor(page, sites);
  if (declared && !cue.strong) return displayName(page, declared);
  return cue.strong ?? elementAuthor(page, sites, options.anchor ?? 0) ?? textByline(page, sites, options.anchor ?? 0, options.bodyStart ?? options.anchor ?? 0) ?? cue.weak;
}
