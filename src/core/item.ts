/**
 * The item shape (ARCHITECTURE §4, a contract). Fields that are unknown are omitted, never invented.
 */
import { z } from 'zod';

export type ItemKind = 'article' | 'list' | 'forum' | 'other';
export type PageLabel = 'detail' | 'list' | 'forum' | 'other';

/** Page-type labels (classifier) → item kinds. */
export const KIND_OF_LABEL: Record<PageLabel, ItemKind> = { detail: 'article', list: 'list', forum: 'forum', other: 'other' };
export const LABEL_OF_KIND: Record<ItemKind, PageLabel> = { article: 'detail', list: 'list', forum: 'forum', other: 'other' };

export interface ListEntry {
  url: string;
  title?: string;
  publishedAt?: string;
}

export interface ForumPost {
  floor?: number;
  author?: string;
  authorUrl?: string;
  publishedAt?: string;
  publishedAtText?: string;
  content: string;
  isMain?: boolean;
}

export interface PageTypeResult {
  label: string;
  probabilities: Record<string, number>;
}

export interface Item {
  url: string;
  kind: ItemKind;
  spider?: string;
  fetchedAt?: string;
  lang?: string;
  title?: string;
  // article
  author?: string;
  publishedAt?: string;
  publishedAtText?: string;
  content?: string;
  contentHtml?: string;
  images?: string[];
  // list
  items?: ListEntry[];
  nextPage?: string;
  pages?: string[];
  // forum
  posts?: ForumPost[];
  pageType?: PageTypeResult;
  /** Why a page gave no content (per-page error, e.g. binary body). Not in the contract's core
   * fields, but allowed: consumers ignore keys they do not know. */
  error?: string;
}

const isoWithOffset = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, 'ISO 8601 with offset');
const url = z.string().url();

export const itemSchema = z
  .object({
    url,
    kind: z.enum(['article', 'list', 'forum', 'other']),
    spider: z.string().optional(),
    fetchedAt: isoWithOffset.optional(),
    lang: z.string().optional(),
    title: z.string().optional(),
    author: z.string().optional(),
    publishedAt: isoWithOffset.optional(),
    publishedAtText: z.string().optional(),
    content: z.string().optional(),
    contentHtml: z.string().optional(),
    images: z.array(z.string()).optional(),
    items: z.array(z.object({ url, title: z.string().optional(), publishedAt: z.string().optional() })).optional(),
    nextPage: url.optional(),
    pages: z.array(z.string()).optional(),
    posts: z
      .array(
        z.object({
          floor: z.number().int().optional(),
          author: z.string().optional(),
          authorUrl: z.string().optional(),
          publishedAt: isoWithOffset.optional(),
          publishedAtText: z.string().optional(),
          content: z.string(),
          isMain: z.boolean().optional(),
        }),
      )
      .optional(),
    pageType: z.object({ label: z.string(), probabilities: z.record(z.string(), z.number()) }).optional(),
    error: z.string().optional(),
  })
  .passthrough();

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
