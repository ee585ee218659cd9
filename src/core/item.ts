/**
 * The item shape (ARCHITECTURE §4, a contract). Fields that are unknown are omitted, never invented.
 */
import { z } from 'zod';

export const ITEM_KINDS = ['article', 'list', 'forum', 'other'] as const;
export const PAGE_LABELS = ['detail', 'list', 'forum', 'other'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
export type PageLabel = (typeof PAGE_LABELS)[number];

/** Whether a string is one of the page labels (a follow rule may carry a user label too). */
export function isPageLabel(label: string | undefined): label is PageLabel {
  return label !== undefined && (PAGE_LABELS as readonly string[]).includes(label);
}

/** Page-type labels (classifier) → item kinds. */
export const KIND_OF_LABEL: Record<PageLabel, ItemKind> = { detail: 'article', list: 'list', forum: 'forum', other: 'other' };
export const LABEL_OF_KIND: Record<ItemKind, PageLabel> = { article: 'detail', list: 'list', forum: 'forum', other: 'other' };

const isoWithOffset = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, 'ISO 8601 with offset');
const url = z.string().url();

export const listEntrySchema = z.object({ url, title: z.string().optional(), publishedAt: z.string().optional() });

/** A reply inside a post: the fields of a post, without floor, main flag or nested replies. */
export const forumReplySchema = z.object({
  author: z.string().optional(),
  authorUrl: z.string().optional(),
  publishedAt: isoWithOffset.optional(),
  publishedAtText: z.string().optional(),
  content: z.string(),
  quotes: z.array(z.string()).optional(),
});

export const forumPostSchema = z.object({
  floor: z.number().int().optional(),
  author: z.string().optional(),
  authorUrl: z.string().optional(),
  publishedAt: isoWithOffset.optional(),
  publishedAtText: z.string().optional(),
  content: z.string(),
  isMain: z.boolean().optional(),
  /** Passages of other posts quoted inside this one, as displayed (their text is also in
   * `content`, which shows the post as displayed; `content` without them is the post's own text). */
  quotes: z.array(z.string()).optional(),
  /** Replies shown inside this post and not as floors of their own: comments under a Q&A answer,
   * 楼中楼 (floor-within-a-floor) replies, 点评. Their text is not in `content`. */
  replies: z.array(forumReplySchema).optional(),
});

export const pageTypeSchema = z.object({ label: z.string(), probabilities: z.record(z.string(), z.number()) });

/**
 * The fields of an item, in groups: those every kind has, and those of one kind (ARCHITECTURE §4).
 * One definition: the per-kind schemas, the validator and every item type below are built from
 * these groups, so they cannot drift.
 */
const commonFields = {
  url,
  kind: z.enum(ITEM_KINDS),
  spider: z.string().optional(),
  fetchedAt: isoWithOffset.optional(),
  lang: z.string().optional(),
  title: z.string().optional(),
  /** The page's main text, whatever its kind (plain text, one line per paragraph or record). */
  content: z.string().optional(),
  contentHtml: z.string().optional(),
  pageType: pageTypeSchema.optional(),
  /** The HTTP status of the response the item was read from (a page that is an item answered
   * 2xx: 4xx and 5xx responses are failures, never items). Absent for saved pages. */
  status: z.number().int().optional(),
  /** Why a page gave no content (per-page error, e.g. binary body). Not in the contract's core
   * fields, but allowed: consumers ignore keys they do not know. */
  error: z.string().optional(),
};
const articleFields = {
  author: z.string().optional(),
  publishedAt: isoWithOffset.optional(),
  publishedAtText: z.string().optional(),
  images: z.array(z.string()).optional(),
};
/** Lists and threads both page: the next page, and the other pages the pager shows. */
const pagingFields = {
  nextPage: url.optional(),
  pages: z.array(z.string()).optional(),
};
const listFields = { items: z.array(listEntrySchema).optional(), ...pagingFields };
const forumFields = { posts: z.array(forumPostSchema).optional(), ...pagingFields };

/** Every field of every kind: the shape the middleware chain fills (`ctx.item`) before the kind is
 * known, and what the validator checks. */
const itemFields = z.object({ ...commonFields, ...articleFields, ...listFields, ...forumFields });

/** One schema per kind: the common fields, `kind` fixed, and that kind's own fields (issue 25:
 * `article.posts` does not type-check; a switch over `kind` narrows to the kind's fields). */
export const articleItemSchema = z.object({ ...commonFields, kind: z.literal('article'), ...articleFields });
export const listItemSchema = z.object({ ...commonFields, kind: z.literal('list'), ...listFields });
export const forumItemSchema = z.object({ ...commonFields, kind: z.literal('forum'), ...forumFields });
export const otherItemSchema = z.object({ ...commonFields, kind: z.literal('other') });
/** The item as a union discriminated by `kind` (keys of other kinds are dropped when parsing). */
export const itemUnionSchema = z.discriminatedUnion('kind', [articleItemSchema, listItemSchema, forumItemSchema, otherItemSchema]);

/** Validates an item; keys it does not know (a user middleware's fields) pass through. One object
 * schema over every field (its `shape` is read field by field): an item is checked field by field
 * whatever its kind, as it always was — the per-kind schemas give the types. */
export const itemSchema = itemFields.passthrough();

export type ListEntry = z.infer<typeof listEntrySchema>;
export type ForumPost = z.infer<typeof forumPostSchema>;
export type ForumReply = z.infer<typeof forumReplySchema>;
export type PageTypeResult = z.infer<typeof pageTypeSchema>;
export type ArticleItem = z.infer<typeof articleItemSchema>;
export type ListItem = z.infer<typeof listItemSchema>;
export type ForumItem = z.infer<typeof forumItemSchema>;
export type OtherItem = z.infer<typeof otherItemSchema>;
/** An item: the union of the kinds, inferred from the schemas, so the two cannot drift. `kind`
 * narrows it: `if (item.kind === 'forum') item.posts`. */
export type Item = ArticleItem | ListItem | ForumItem | OtherItem;
/** The item a page's middleware fill (`ctx.item`): every field of every kind, all optional but
 * the URL, until the chain is done and the kind is decided. */
export type ItemDraft = Partial<z.infer<typeof itemFields>> & { url: string };
/** Item of one kind: `ItemOfKind<'forum'>` is `ForumItem`. */
export type ItemOfKind<K extends ItemKind> = Extract<Item, { kind: K }>;

/** A post's own text: its `content` (as displayed) without the lines of its `quotes` (the passages
 * of other posts it quotes), each quoted line dropped once. */
export function ownText(p: Pick<ForumPost, 'content' | 'quotes'>): string {
  if (!p.quotes?.length) return p.content;
  const drop = new Map<string, number>();
  for (const q of p.quotes) for (const l of q.split('\n')) drop.set(l, (drop.get(l) ?? 0) + 1);
  return p.content
    .split('\n')
    .filter((l) => {
      const n = drop.get(l);
      if (!n) return true;
      drop.set(l, n - 1);
      return false;
    })
    .join('\n');
}

/** Drop undefined / empty-string / empty-array fields so unknowns are omitted, not emitted empty. */
export function compactItem<T extends object>(item: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 0 && k !== 'posts' && k !== 'items') continue;
    out[k] = v;
  }
  return out as T;
}
