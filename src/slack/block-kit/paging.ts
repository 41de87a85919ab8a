// Paging shared by every list: page arithmetic, the Prev/Next buttons and their value, which carries
// what the listener needs to render the neighbouring page (list kind, filters, page number). The
// value comes back from Slack, so it is decoded with a schema rather than trusted.
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { ActionId } from '../ids.js';
import { button, contextLine, header } from './elements.js';
import { decodeEncodedValue } from './encoded-value.js';
import { blockTextLength, MESSAGE_BUDGET } from './message-budget.js';
import { escapeMrkdwn, LIMITS, mention, mentionedUserId, plural } from './text.js';

const LIST_KINDS = ['machines', 'templates', 'users', 'networks', 'scripts', 'drives'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

const pageValueSchema = z.strictObject({
  kind: z.enum(LIST_KINDS),
  filters: z
    .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/), z.string())
    .refine((filters) => Object.keys(filters).length <= 30, 'at most 30 filters'),
  page: z.number().int().min(1).max(1_000_000),
});
export type PageValue = z.infer<typeof pageValueSchema>;

/** What a list builder is asked for: a 1-based page, an optional page size and the filters in force. */
export interface PageRequest {
  page: number;
  pageSize?: number;
  filters: Record<string, string>;
}

/** Compact JSON for a Prev/Next button value; throws if it would not fit Slack's 2000 characters. */
export function encodePageValue(value: PageValue): string {
  const encoded = JSON.stringify({ kind: value.kind, filters: value.filters, page: value.page });
  if (encoded.length > LIMITS.buttonValue) {
    throw new RangeError(`Page value is ${encoded.length} characters; Slack allows ${LIMITS.buttonValue}`);
  }
  return encoded;
}

/** Reads a Prev/Next button value; throws an error naming what is wrong with a tampered one. */
export function decodePageValue(raw: string): PageValue {
  return decodeEncodedValue(pageValueSchema, raw, 'Page button value');
}

export interface PageSlice {
  /** The page shown: the one asked for, moved into range when the list shrank since the click. */
  page: number;
  pageCount: number;
  start: number;
  end: number;
}

export function pageSlice(total: number, requestedPage: number, pageSize: number): PageSlice {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(requestedPage) || 1), pageCount);
  const start = (page - 1) * pageSize;
  return { page, pageCount, start, end: Math.min(total, start + pageSize) };
}

/** The page size asked for, within 1..max. */
function clampPageSize(requested: number | undefined, fallback: number, max: number): number {
  if (requested === undefined || !Number.isFinite(requested)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(requested)));
}

/** A headline's longest page part, for measuring the header before the page is known. */
const WIDEST_SLICE: PageSlice = { page: 1_000_000, pageCount: 1_000_000, start: 0, end: 0 };
/** The pager's button labels, which Slack counts as text. */
const PAGER_TEXT = '◀ Prev'.length + 'Next ▶'.length;

/**
 * The page size asked for, made smaller when a page that large could pass the message budget: every
 * page is measured as if it held the list's largest items, so paging through long names (whose escapes
 * grow them) never reaches a page Slack refuses, and the pages stay the same size from click to click.
 */
function fittingPageSize(
  built: readonly KnownBlock[][],
  dividers: boolean,
  fixed: KnownBlock[],
  wanted: number,
): number {
  let widest = 0;
  for (const blocks of built) widest = Math.max(widest, blocks.length + (dividers ? 1 : 0));
  // A fresh array, sorted in place: this runs for every list drawn.
  const texts = built.map(blockTextLength).sort((a, b) => b - a);
  let text = blockTextLength(fixed) + PAGER_TEXT;
  let fitting = 0;
  for (let index = 0; index < Math.min(wanted, texts.length); index += 1) {
    text += texts[index] as number;
    const blocks = fixed.length + PAGER_BLOCKS + widest * (fitting + 1);
    if (text > MESSAGE_BUDGET.text || blocks > MESSAGE_BUDGET.blocks) break;
    fitting += 1;
  }
  return Math.max(1, Math.min(wanted, fitting));
}

/** Blocks the pager adds at most: Prev and Next each in their own actions block (see pageNavigation). */
export const PAGER_BLOCKS = 2;

/**
 * Prev/Next buttons. Both carry ActionId.listPage, and Slack rejects two equal action_ids in one
 * block, so each sits in its own actions block; Prev is absent on the first page, Next on the last.
 */
function pageNavigation(kind: ListKind, filters: Record<string, string>, slice: PageSlice): KnownBlock[] {
  const targets: { label: string; page: number; blockId: string }[] = [];
  if (slice.page > 1) targets.push({ label: '◀ Prev', page: slice.page - 1, blockId: 'list_page_prev' });
  if (slice.page < slice.pageCount)
    targets.push({ label: 'Next ▶', page: slice.page + 1, blockId: 'list_page_next' });
  if (targets.length === 0) return [];
  let withValues: { label: string; page: number; blockId: string; value: string }[];
  try {
    withValues = targets.map((target) => ({
      ...target,
      value: encodePageValue({ kind, filters, page: target.page }),
    }));
  } catch {
    return [contextLine('These filters are too long to page through here; narrow them to see other pages.')];
  }
  return withValues.map((target) => ({
    type: 'actions',
    block_id: target.blockId,
    elements: [
      button({
        actionId: ActionId.listPage,
        text: target.label,
        value: target.value,
        accessibilityLabel: `Page ${target.page} of ${slice.pageCount}`,
      }),
    ],
  }));
}

/** `state=ready · region=Europe (AMS1)` as escaped mrkdwn code spans, or undefined without filters. */
export function filtersMrkdwn(filters: Record<string, string>): string | undefined {
  const entries = Object.entries(filters);
  if (entries.length === 0) return undefined;
  return entries
    .map(([key, value]) => {
      // A person named by mention (`owner=@sam`) is shown as the mention Slack draws as a name.
      const mentioned = mentionedUserId(value);
      return mentioned === undefined
        ? `\`${escapeMrkdwn(`${key}=${value}`)}\``
        : `\`${escapeMrkdwn(key)}=\`${mention(mentioned)}`;
    })
    .join(' · ');
}

/** `12 machines · page 2 of 3`, or `12 machines` when everything fits on one page. */
function countHeadline(total: number, noun: string, slice: PageSlice): string {
  const count = plural(total, noun);
  return slice.pageCount > 1 ? `${count} · page ${slice.page} of ${slice.pageCount}` : count;
}

export interface ListPageInput<Item> {
  kind: ListKind;
  /** What one item is, for the headline ("machine" → "12 machines · page 2 of 3"). */
  noun: string;
  /** Every item of the list, not only this page's. */
  items: Item[];
  request: PageRequest;
  /** Items a page shows when the request names no size, and the most it may show. */
  pageSize: { fallback: number; max: number };
  itemBlocks: (item: Item) => KnownBlock[];
  /** A divider between items whose blocks would otherwise run together (cards with buttons). */
  dividers?: boolean;
}

/**
 * One page of a list, laid out the same way for every kind: the count as its header, the filters in
 * force, the page's items, then Prev/Next. An empty list has no page: each list says why it is empty.
 */
export function listPage<Item>(input: ListPageInput<Item>): {
  blocks: KnownBlock[];
  headline: string;
  shown: Item[];
} {
  const { request } = input;
  const filters = filtersMrkdwn(request.filters);
  const fixed: KnownBlock[] = [header(countHeadline(input.items.length, input.noun, WIDEST_SLICE))];
  if (filters) fixed.push(contextLine(`Filters: ${filters}`));
  // Every item's blocks are built once: measured for the page size, then the page's are shown.
  const built = input.items.map((item) => input.itemBlocks(item));
  const pageSize = fittingPageSize(
    built,
    input.dividers === true,
    fixed,
    clampPageSize(request.pageSize, input.pageSize.fallback, input.pageSize.max),
  );
  const slice = pageSlice(input.items.length, request.page, pageSize);
  const shown = input.items.slice(slice.start, slice.end);
  const headline = countHeadline(input.items.length, input.noun, slice);
  const blocks: KnownBlock[] = [header(headline), ...fixed.slice(1)];
  for (const [index, itemBlocks] of built.slice(slice.start, slice.end).entries()) {
    if (input.dividers && index > 0) blocks.push({ type: 'divider' });
    blocks.push(...itemBlocks);
  }
  blocks.push(...pageNavigation(input.kind, request.filters, slice));
  return { blocks, headline, shown };
}
