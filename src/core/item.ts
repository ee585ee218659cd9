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

/** The fields of an item. The type `Item` is inferred from this schema, so the two cannot drift. */
const itemFields = z.object({
  url,
  kind: z.enum(ITEM_KINDS),
  spider: z.string().optional(),
  fetchedAt: isoWithOffset.optional(),
  lang: z.string().optional(),
  title: z.string().optional(),
  // article
  author: z.string().optional(),
  publishedAt: isoWithOffset.optional(),
  publishedAtText: z.string().optional(),
  content: z.string().optional(),
  contentHtml: z.string().optional(),
  images: z.array(z.string()).optional(),
  // list
  items: z.array(listEntrySchema).optional(),
  nextPage: url.optional(),
  pages: z.array(z.string()).optional(),
  // forum
  posts: z.array(forumPostSchema).optional(),
  pageType: pageTypeSchema.optional(),
  /** Why a page gave no content (per-page error, e.g. binary body). Not in the contract's core
   * fields, but allowed: consumers ignore keys they do not know. */
  error: z.string().optional(),
});

/** One schema per kind: the item's fields with `kind` fixed (issue 15). Every field stays allowed
 * for every kind (ARCHITECTURE §4: an article may carry `nextPage`, a thread a `title`); what the
 * union adds is that `item.kind` narrows the type, and a switch over kinds can be exhaustive. */
const itemOfKind = <K extends ItemKind>(kind: K) => itemFields.extend({ kind: z.literal(kind) });
export const articleItemSchema = itemOfKind('article');
export const listItemSchema = itemOfKind('list');
export const forumItemSchema = itemOfKind('forum');
export const otherItemSchema = itemOfKind('other');

/** Validates an item; keys it does not know (a user middleware's fields) pass through. One object
 * schema (its `shape` is read field by field), accepting exactly what the union of the per-kind
 * schemas accepts. */
export const itemSchema = itemFields.passthrough();

export type ListEntry = z.infer<typeof listEntrySchema>;
export type ForumPost = z.infer<typeof forumPostSchema>;
export type ForumReply = z.infer<typeof forumReplySchema>;
export type PageTypeResult = z.infer<typeof pageTypeSchema>;
export type ArticleItem = z.infer<typeof articleItemSchema>;
export type ListItem = z.infer<typeof listItemSchema>;
export type ForumItem = z.infer<typeof forumItemSchema>;
export type OtherItem = z.infer<typeof otherItemSchema>;
/** An item: the union of the kinds, inferred from the schemas, so the two cannot drift. */
export type Item = ArticleItem | ListItem | ForumItem | OtherItem;

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
